// The player's Mini App: asks for the player's own record, shop and evenings with Telegram's
// proof (initData), draws them, and sends the player's presses (exchange, withdraw, sign up).
// Every text comes from the server; names are put in with textContent only. Works without
// telegram-web-app.js: initData is then read from the launch URL's #tgWebAppData.
(function () {
  "use strict";
  var root = document.getElementById("me");
  var base = root.getAttribute("data-root");  // the site's root, relative: a path prefix stays
  var T = JSON.parse(document.getElementById("texts").textContent);
  var tg = window.Telegram && window.Telegram.WebApp;
  var initData = (tg && tg.initData) || new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
  var data = null, tab = "profile", confirming = null, photos = {};

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function fatal(text) {
    root.setAttribute("data-state", "refused");
    $("tabs").hidden = true;
    ["profile", "roles", "games", "shop", "evenings"].forEach(function (t) { $(t).hidden = true; });
    $("fatal").textContent = text;
    $("fatal").hidden = false;
    if (tg && tg.close) {
      var close = el("button", "act", T.close);
      close.type = "button";
      close.id = "close";
      close.addEventListener("click", function () { tg.close(); });
      $("fatal").appendChild(document.createElement("br"));
      $("fatal").appendChild(close);
    }
  }

  function say(text, kind) {
    var n = $("notice");
    n.textContent = text || "";
    n.className = kind || "";
  }

  function call(method, path, body) {
    var headers = { "Authorization": "tma " + initData };
    if (body) headers["Content-Type"] = "application/json";
    return fetch("./player/" + path, {  // relative: under /app/player wherever the site is
      method: method, headers: headers, body: body ? JSON.stringify(body) : undefined,
      cache: "no-store"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (answer) {
        if (r.status === 401 || r.status === 403) {
          fatal(answer.text || T.refused);
          throw new Error("refused");
        }
        return { status: r.status, data: answer };
      });
    });
  }

  function link(a, path) {
    a.href = base + path + (path.indexOf("?") < 0 ? "?" : "&") + "lang=" + data.locale;
    if (tg && tg.openLink) {  // inside Telegram: the page opens in the browser, the app stays
      a.onclick = function (ev) { ev.preventDefault(); tg.openLink(a.href); };
    }
  }

  function button(text, cls, onclick) {
    var b = el("button", "act" + (cls ? " " + cls : ""), text);
    b.type = "button";
    b.addEventListener("click", onclick);
    return b;
  }

  function act(path, body) {  // one press at a time; its answer said; everything read again
    if (root.hasAttribute("data-busy")) return;
    root.setAttribute("data-busy", "");
    call("POST", path, body).then(function (r) {
      say(r.data.text, r.status === 200 ? "ok" : "refused");
      confirming = null;
      return load();
    }, function (e) {
      if (e.message !== "refused") say(T.offline, "refused");
    }).then(function () { root.removeAttribute("data-busy"); });
  }

  function drawProfile() {
    var p = data.profile, r = data.rating;
    $("nickname").textContent = p.nickname;
    $("blocked").textContent = p.blocked || "";
    $("blocked").hidden = !p.blocked;
    var facts = clear($("facts"));
    p.lines.forEach(function (line) { facts.appendChild(el("li", null, line)); });
    $("rating-title").textContent = data.texts.rating;
    var head = clear($("ratings").tHead.rows[0]);
    r.head.forEach(function (h) { head.appendChild(el("th", null, h)); });
    var body = clear($("ratings").tBodies[0]);
    r.rows.forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("td", null, row.side));
      tr.appendChild(el("td", "num", row.value + (row.provisional ? " (" + row.provisional + ")" : "")));
      tr.appendChild(el("td", "num", row.games));
      tr.appendChild(el("td", "num", row.wins));
      body.appendChild(tr);
    });
    $("ratings").hidden = !r.rows.length;
    $("rating-none").textContent = r.none || "";
    $("rating-none").hidden = !r.none;
    $("my-page").textContent = data.texts.my_page;
    $("my-page").hidden = !p.page;
    if (p.page) link($("my-page"), p.page);
    $("how").textContent = data.texts.how;
    link($("how"), "rating");
    drawAchievements();
    drawSeason();
  }

  function drawSeason() {  // the season under way: the player's line, the last Hall of Fame
    var s = data.season;
    $("season-title").textContent = s.title;
    $("season-mine").textContent = s.mine;
    $("fame-title").textContent = s.fame_title || "";
    $("fame-title").hidden = !s.fame_title;
    var list = clear($("fame"));
    s.fame.forEach(function (line) { list.appendChild(el("li", null, line)); });
    $("fame-none").textContent = s.fame_none || "";
    $("fame-none").hidden = !s.fame_none;
    $("season-link").textContent = s.link_text;
    link($("season-link"), s.link);
  }

  function drawAchievements() {  // the ones earned, then the levelled ones on their way
    var a = data.achievements;
    $("achievements-title").textContent = a.title;
    var list = clear($("achievements"));
    a.earned.forEach(function (x) {
      var li = el("li");
      li.setAttribute("data-achievement", x.id);
      li.appendChild(el("span", "icon", x.icon + " "));
      li.appendChild(el("b", null, x.name));
      if (x.level !== null) li.appendChild(el("span", "level", " · " + x.level));
      li.appendChild(el("div", "muted", x.text));
      list.appendChild(li);
    });
    list.hidden = !a.earned.length;
    $("achievements-none").textContent = a.none || "";
    $("achievements-none").hidden = !a.none;
    var next = clear($("achievements-next"));
    a.next.forEach(function (x) {
      var li = el("li");
      li.setAttribute("data-achievement", x.id);
      li.appendChild(el("div", null, x.line));
      var bar = el("progress");
      bar.max = x.next;
      bar.value = x.value;
      li.appendChild(bar);
      next.appendChild(li);
    });
    $("achievements-next-title").textContent = a.next_title;
    $("achievements-next-title").hidden = next.hidden = !a.next.length;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function drawGraph() {  // the rating after each counted game: a line over the games
    var box = $("graph"), graph = data.graph;
    Array.prototype.forEach.call(box.querySelectorAll("svg"), function (n) { n.remove(); });
    box.hidden = !graph;
    if (!graph) return;
    $("graph-title").textContent = data.texts.graph;
    var ys = graph.points, W = 340, H = 150, L = 30, R = 6, T = 8, B = 8;
    var lo = Math.min.apply(null, ys.concat([0])), hi = Math.max.apply(null, ys.concat([0]));
    if (hi - lo < 2) { hi += 1; lo -= 1; }
    function x(i) { return L + (W - L - R) * i / (ys.length - 1); }
    function y(v) { return T + (H - T - B) * (hi - v) / (hi - lo); }
    var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": data.texts.graph });
    s.appendChild(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", "class": "frame" }));
    s.appendChild(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), "class": "zero" }));
    [hi, 0, lo].forEach(function (v) {
      s.appendChild(svg("text", { x: L - 4, y: y(v) + 3, "text-anchor": "end" }, v.toFixed(1)));
    });
    s.appendChild(svg("polyline", { "class": "line", points: ys.map(function (v, i) {
      return x(i).toFixed(1) + "," + y(v).toFixed(1); }).join(" ") }));
    s.appendChild(svg("circle", { cx: x(ys.length - 1), cy: y(ys[ys.length - 1]), r: 3 }));
    box.appendChild(s);
  }

  function table(id, head, rows) {
    var t = $(id);
    var tr = clear(t.tHead.rows[0]);
    head.forEach(function (h) { tr.appendChild(el("th", null, h)); });
    var body = clear(t.tBodies[0]);
    rows.forEach(function (r) {
      var row = el("tr", r.few ? "few" : "");
      row.appendChild(el("td", null, r.name));
      row.appendChild(el("td", "num", r.games));
      row.appendChild(el("td", "num", r.won));
      row.appendChild(el("td", "num", r.everyone));
      body.appendChild(row);
    });
  }

  function lines(id, titleId, title, items) {
    var list = clear($(id));
    items.forEach(function (item) { list.appendChild(item); });
    $(titleId).textContent = title;
    $(titleId).hidden = list.hidden = !items.length;
  }

  function drawRoles() {
    var r = data.roles;
    $("roles-none").textContent = r.none || "";
    $("roles-none").hidden = !r.none;
    $("roles-some").hidden = !!r.none;
    if (r.none) return;
    $("cards-title").textContent = data.texts.roles;
    table("cards", r.head, r.cards);
    $("sides-title").textContent = data.texts.sides;
    table("sides", r.side_head, r.sides);
    $("roles-note").textContent = r.note || "";
    lines("rivals", "rivals-title", data.texts.rivals, r.rivals.map(function (p) {
      var li = el("li");
      li.appendChild(el("span", "nick", p.nickname));
      li.appendChild(el("div", "muted", p.line));
      return li;
    }));
    lines("killed-by", "killed-by-title", data.texts.killed_by,
          r.killed_by.map(function (t) { return el("li", null, t); }));
    lines("killed", "killed-title", data.texts.killed,
          r.killed.map(function (t) { return el("li", null, t); }));
  }

  function drawGames() {
    var list = clear($("game-list"));
    data.games.forEach(function (g) {
      var li = el("li", g.won === true ? "won" : g.won === false ? "lost" : "");
      li.setAttribute("data-game", g.id);
      var a = el("a", null, g.title);
      a.target = "_blank";
      a.rel = "noopener";
      link(a, g.page);
      li.appendChild(a);
      li.appendChild(el("div", "muted", g.club));
      li.appendChild(el("div", null, g.line));
      list.appendChild(li);
    });
    $("games-none").textContent = data.texts.games_none || "";
    $("games-none").hidden = data.games.length > 0;
  }

  function photoOf(gift, img) {
    if (photos[gift.id]) { img.src = photos[gift.id]; return; }
    fetch("./player/photo/" + gift.id, { headers: { "Authorization": "tma " + initData } })
      .then(function (r) { if (!r.ok) throw new Error("no photo"); return r.blob(); })
      .then(function (blob) { photos[gift.id] = URL.createObjectURL(blob); img.src = photos[gift.id]; })
      .catch(function () { img.remove(); });
  }

  function confirmBox(gift, shop) {
    var box = el("div", "confirm");
    var select = el("select");
    select.id = "club";
    shop.clubs.forEach(function (c) {
      var o = el("option", null, c.label);
      o.value = String(c.id);
      if (c.id === shop.home) o.selected = true;
      select.appendChild(o);
    });
    var label = el("label", null, data.texts.collect + " ");
    label.appendChild(select);
    box.appendChild(label);
    box.appendChild(el("br"));
    var yes = button(gift.confirm, "", function () {
      act("exchange", { gift: gift.id, price: gift.price, club: Number(select.value),
                        card: confirming.card });
    });
    yes.id = "confirm";
    box.appendChild(yes);
    box.appendChild(button(data.texts.no, "no", function () { confirming = null; drawShop(); }));
    return box;
  }

  function drawShop() {
    var shop = data.shop;
    $("balance").textContent = shop.balance;
    $("shop-closed").textContent = shop.closed || "";
    $("shop-closed").hidden = !shop.closed;
    $("shop-empty").textContent = shop.empty || "";
    $("shop-empty").hidden = !shop.empty;
    var gifts = clear($("gifts"));
    shop.gifts.forEach(function (g) {
      var card = el("div", "gift");
      card.setAttribute("data-gift", g.id);
      if (g.photo) {
        var img = el("img");
        img.alt = g.name;
        card.appendChild(img);
        photoOf(g, img);
      }
      card.appendChild(el("div", "name", g.name));
      card.appendChild(el("div", null, g.line));
      if (g.why) card.appendChild(el("div", "muted", g.why));
      if (confirming && confirming.gift === g.id) {
        card.appendChild(confirmBox(g, shop));
      } else {
        var b = button(g.exchange, "", function () {
          // this confirmation's number: a second press of its Yes is the same request
          confirming = { gift: g.id, card: -(1 + Math.floor(Math.random() * 9e15)) };
          drawShop();
        });
        b.setAttribute("data-exchange", g.id);
        b.disabled = !!(g.why || shop.closed);
        card.appendChild(b);
      }
      gifts.appendChild(card);
    });
    $("requests-title").textContent = data.texts.requests;
    $("requests-title").hidden = !shop.requests.length;
    var requests = clear($("requests"));
    shop.requests.forEach(function (r) {
      var li = el("li", null, r.line);
      li.appendChild(el("br"));
      var b = button(r.withdraw, "no", function () { act("withdraw", { request: r.id }); });
      b.setAttribute("data-withdraw", r.id);
      li.appendChild(b);
      requests.appendChild(li);
    });
  }

  function drawEvenings() {
    var list = clear($("evening-list"));
    data.evenings.forEach(function (e) {
      var li = el("li");
      li.setAttribute("data-evening", e.id);
      li.appendChild(el("div", "name", e.when + " · " + e.club));
      li.appendChild(el("div", "muted", e.line));
      if (e.place) li.appendChild(el("div", "place", e.place));
      if (e["in"]) {
        var yes = button(e["in"], "", function () { act("evening", { evening: e.id, action: "in" }); });
        yes.setAttribute("data-in", e.id);
        li.appendChild(yes);
      }
      if (e.out) {
        var no = button(e.out, "no", function () { act("evening", { evening: e.id, action: "out" }); });
        no.setAttribute("data-out", e.id);
        li.appendChild(no);
      }
      list.appendChild(li);
    });
    $("evenings-none").textContent = data.texts.evenings_none || "";
    $("evenings-none").hidden = data.evenings.length > 0;
  }

  function show(name) {
    tab = name;
    Array.prototype.forEach.call(document.querySelectorAll("#tabs button"), function (b) {
      var on = b.getAttribute("data-tab") === name;
      b.className = on ? "on" : "";
      $(b.getAttribute("data-tab")).hidden = !on;
    });
  }

  function draw() {
    document.documentElement.lang = data.locale;
    document.title = data.texts.title;
    Array.prototype.forEach.call(document.querySelectorAll("#tabs button"), function (b) {
      b.textContent = data.texts["tab_" + b.getAttribute("data-tab")];
    });
    T.offline = data.texts.offline;
    T.close = data.texts.close;
    drawProfile();
    drawGraph();
    drawRoles();
    drawGames();
    drawShop();
    drawEvenings();
    $("tabs").hidden = false;
    show(tab);
    root.setAttribute("data-state", "live");
  }

  function load() {
    return call("GET", "me").then(function (r) {
      if (r.status !== 200) { say(r.data.text || T.refused, "refused"); return; }
      data = r.data;
      draw();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("#tabs button"), function (b) {
    b.addEventListener("click", function () { show(b.getAttribute("data-tab")); });
  });
  if (!initData) {
    fatal(T.no_init_data);
    return;
  }
  if (tg) {
    try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ }
  }
  load().catch(function (e) { if (e.message !== "refused") say(T.offline, "refused"); });
})();
