// The host's Mini App: polls the table's state, draws the seats and the countdown, sends the
// host's actions. Every text comes from the server (the page's JSON and the answers); names are
// put in with textContent only. Works without telegram-web-app.js: initData is then read from
// the launch URL's #tgWebAppData, as Telegram passes it.
(function () {
  "use strict";
  var POLL_MS = 1500;
  var root = document.getElementById("host");
  var T = JSON.parse(document.getElementById("texts").textContent);
  var game = root.getAttribute("data-game");
  var lang = root.getAttribute("data-lang");
  var tg = window.Telegram && window.Telegram.WebApp;
  var initData = (tg && tg.initData) || new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
  var view = null, receivedAt = 0, pending = null, stopped = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function fatal(text) {
    stopped = true;
    root.setAttribute("data-state", "refused");
    $("table").hidden = true;
    $("phase").textContent = "";
    $("countdown").textContent = "";
    $("window").textContent = "";
    $("actions").textContent = "";
    $("prompt").hidden = true;
    $("fatal").textContent = text;
    $("fatal").hidden = false;
    if (tg && tg.close) {  // back to the chat, where the panel's button opens a fresh table
      var close = el("button", "action", T.close);
      close.type = "button";
      close.id = "close";
      close.addEventListener("click", function () { tg.close(); });
      $("actions").appendChild(close);
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
    return fetch("./" + game + path + "?lang=" + lang, {  // relative: a WEB_URL path prefix stays
      method: method, headers: headers, body: body ? JSON.stringify(body) : undefined,
      cache: "no-store"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.status === 401 || r.status === 403 || r.status === 404) {
          fatal(data.text || T.refused);
          throw new Error("refused");
        }
        return { status: r.status, data: data };
      });
    });
  }

  function clock(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function leftOf(seconds) {  // seconds left now of what the state said (paused: as it said)
    return view.paused ? seconds : seconds - (performance.now() - receivedAt) / 1000;
  }

  function tick() {
    // the phase's own countdown, and a shorter window inside it beside it, by its name
    var c = $("countdown"), w = $("window");
    if (!view || view.deadline_in === null) {
      c.textContent = "";
      w.textContent = "";
      return;
    }
    var left = leftOf(view.deadline_in);
    c.textContent = clock(left);
    c.className = left <= 10 && !view.paused ? "soon" : "";
    if (view.window) {
      var inner = leftOf(view.window.in);
      w.textContent = view.window.label + ": " + clock(inner);
      w.className = inner <= 10 && !view.paused ? "soon" : "";
    } else {
      w.textContent = "";
    }
  }

  function seatTitle(s) { return "№" + s.seat + " " + s.name; }

  function drawSeats() {
    var circle = $("circle");
    circle.textContent = "";
    var n = view.seats.length;
    var choosing = pending && pending.stage === "seat" ? pending.action.seats.filter(
      function (n) { return n !== pending.first; }) : null;
    view.seats.forEach(function (s, i) {
      var angle = 2 * Math.PI * i / Math.max(n, 1) - Math.PI / 2;
      var b = el("button", "seat");
      b.type = "button";
      b.setAttribute("data-seat", s.seat);
      b.style.left = (50 + 41 * Math.cos(angle)) + "%";
      b.style.top = (50 + 41 * Math.sin(angle)) + "%";
      ["alive", "dead", "jailed", "offline", "blocked", "acted"].forEach(function (k) {
        if (s[k]) b.classList.add(k);
      });
      if (s.seat === view.voter) b.classList.add("turn");
      b.appendChild(el("span", "num", s.seat));
      b.appendChild(el("span", "name", s.name));
      var marks = [];
      if (s.jailed) marks.push(T.jailed);
      if (s.offline) marks.push(T.offline);
      if (s.blocked) marks.push(T.blocked);
      if (s.acted) marks.push(T.acted);
      if (s.fouls) marks.push("🟨" + s.fouls);
      if (marks.length) b.appendChild(el("span", "marks", marks.join(" · ")));
      b.title = seatTitle(s) + (s.dead ? " — " + T.dead : "");
      if (choosing && choosing.indexOf(s.seat) >= 0) {
        b.classList.add("pick");
        b.addEventListener("click", function () { picked(s); });
      } else {
        b.disabled = true;
      }
      circle.appendChild(b);
    });
  }

  function drawChoices() {
    // tonight's choices (the host's whole truth), or the vote so far (public anyway)
    var lines = view.choices.length ? view.choices : view.votes;
    var list = $("choices");
    list.textContent = "";
    lines.forEach(function (line) { list.appendChild(el("li", null, line)); });
    $("choices-title").textContent = view.choices.length ? T.choices : T.votes;
    $("choices-box").hidden = !lines.length;
  }

  function drawActions() {
    var box = $("actions");
    box.textContent = "";
    view.actions.forEach(function (a) {
      var b = el("button", "action", a.label);
      b.type = "button";
      b.setAttribute("data-action", a.name);
      if (a.danger) b.classList.add("danger");
      b.addEventListener("click", function () { start(a); });
      box.appendChild(b);
    });
  }

  function drawPrompt() {
    var p = $("prompt");
    p.textContent = "";
    if (!pending) { p.hidden = true; return; }
    p.hidden = false;
    if (pending.stage === "seat") {
      p.appendChild(el("span", null, pending.first === null ? pending.action.pick
        : pending.action.then.replace("{seat}", "№" + pending.first)));
    } else if (pending.stage === "option") {
      // a choice among the action's options (a foul's reason, the foul to undo)
      var a = pending.action, first = pending.first;
      p.appendChild(el("span", null, first === null ? a.pick
        : a.ask.replace("{seat}", "№" + first)));
      a.options.forEach(function (o) {
        var b = el("button", "option", o.label);
        b.type = "button";
        b.setAttribute("data-option", o.arg);
        b.addEventListener("click", function () {
          var arg = (first === null ? "" : first + ":") + o.arg;
          send(a, a.next === undefined ? arg : arg + ":" + a.next);
        });
        p.appendChild(b);
      });
    } else {
      p.appendChild(el("span", null, pending.question));
      var yes = el("button", "yes danger", T.yes);
      yes.type = "button";
      yes.id = "confirm";
      yes.addEventListener("click", function () { send(pending.action, pending.arg); });
      p.appendChild(yes);
    }
    var no = el("button", "no", T.cancel);
    no.type = "button";
    no.addEventListener("click", function () { pending = null; draw(); });
    p.appendChild(no);
  }

  function draw() {
    root.setAttribute("data-stage", view.stage);
    root.setAttribute("data-step", view.step);
    $("title").textContent = view.title;
    document.title = view.title;  // the table's name, once known (several tables)
    $("phase").textContent = view.phase;
    $("paused").hidden = !view.paused;
    $("table").hidden = false;
    drawSeats();
    drawChoices();
    drawActions();
    drawPrompt();
    tick();
  }

  function start(a) {
    if (a.seats) {
      pending = { action: a, stage: "seat", first: null };
    } else if (a.options) {
      pending = { action: a, stage: "option", first: null };
    } else if (a.confirm) {
      pending = { action: a, stage: "confirm", question: a.confirm, arg: null };
    } else {
      send(a, a.arg === undefined ? null : a.arg);
      return;
    }
    draw();
  }

  function picked(s) {
    var a = pending.action;
    if (a.options) {  // the seat first, then one of the options
      pending = { action: a, stage: "option", first: s.seat };
      draw();
      return;
    }
    if (a.then && pending.first === null) {
      pending.first = s.seat;
      draw();
      return;
    }
    var arg = a.then ? pending.first + ":" + s.seat : s.seat;
    if (a.confirm) {
      pending = { action: a, stage: "confirm", arg: arg,
                  question: a.confirm.replace("{seat}", seatTitle(s)) };
      draw();
    } else {
      send(a, arg);
    }
  }

  function send(a, arg) {
    pending = null;
    root.setAttribute("data-busy", "1");
    call("POST", "/act", { action: a.name, arg: arg, step: view.step })
      .then(function (r) {
        say(r.data.text || (r.status === 200 ? "" : T.offline_net),
            r.status === 200 ? "ok" : "refused");
        return refresh();
      })
      .catch(function (e) { if (!stopped) say(T.offline_net, "refused"); })
      .then(function () { root.removeAttribute("data-busy"); });
  }

  function refresh() {
    return call("GET", "/state").then(function (r) {
      if (r.status !== 200) return;
      view = r.data;
      receivedAt = performance.now();
      if (pending) {  // a press half-way (a seat to pick, a yes to give) follows the new state
        var now = view.actions.filter(function (a) {
          return a.name === pending.action.name && a.arg === pending.action.arg;
        })[0];
        if (now) pending.action = now; else pending = null;
      }
      root.setAttribute("data-state", "live");
      draw();
    });
  }

  function poll() {
    if (stopped) return;
    refresh().catch(function () { if (!stopped) say(T.offline_net, "refused"); })
      .then(function () { if (!stopped) setTimeout(poll, POLL_MS); });
  }

  if (tg) {
    try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ }
  }
  if (!initData) {
    fatal(T.no_init_data);
    return;
  }
  setInterval(tick, 250);
  poll();
})();
