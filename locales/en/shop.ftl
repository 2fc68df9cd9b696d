## The gift shop: /gifts, a gift's card, requests, the admins' catalogue (bot/handlers/shop*.py)

shop-help-private = /gifts — the gift shop: exchange your points for the network's gifts
shop-help-admin =
    <b>Gift shop</b>
    /shop — the catalogue, with buttons to add and change gifts
    /gift_requests — the open requests, with Handed over / Cancel
    /gift_add PRICE STOCK NAME — a new gift
    /gift_edit ID price|stock|name VALUE — change a gift
    /gift_photo ID — as a photo's caption (or in reply to a photo); /gift_photo ID off
    /gift_retire ID, /gift_restore ID — take a gift off sale, put it back

commands-gifts = The gift shop
commands-shop = The gift catalogue (admins)
commands-gift_requests = Open gift requests
commands-gift_add = Add a gift: /gift_add PRICE STOCK NAME
commands-gift_edit = Change a gift: /gift_edit ID price|stock|name VALUE
commands-gift_photo = A gift's photo: /gift_photo ID as a photo's caption
commands-gift_retire = Take a gift off sale
commands-gift_restore = Put a gift back on sale

shop-head = <b>🎁 Gifts</b>
shop-balance = Your points: { $points }; reserved by your requests: { $reserved }; available: { $available }.
shop-balance_reserved = Reserved for gift requests: { $reserved ->
        [one] { $reserved } point
       *[other] { $reserved } points
    }; available: { $available ->
        [one] { $available } point
       *[other] { $available } points
    }.
shop-empty = No gifts on sale yet.
shop-line_yes = ✅ <b>{ $name }</b> — { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, left: { $left }
shop-line_no = ▫️ <b>{ $name }</b> — { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, left: { $left } ({ $why })
shop-why-no_admins = exchange closed
shop-no_admins = The exchange is closed for now: the bot has no admins to hand gifts over. Your points stay yours.
shop-why-retired = no longer on sale
shop-why-out_of_stock = out of stock
shop-why-insufficient = you need { $missing ->
        [one] { $missing } point
       *[other] { $missing } points
    } more
shop-mine_head = <b>Your requests</b> (the points are reserved until an admin hands the gift over):
shop-mine_line = #{ $id } { $gift } — { $points ->
        [one] { $points } point
       *[other] { $points } points
    }, asked on { DATE($date, format: "%Y-%m-%d") }
shop-hint = Press a gift to see it and exchange your points.
shop-card = 🎁 <b>{ $name }</b>
    Price: { $price ->
        [one] { $price } point
       *[other] { $price } points
    }. Left: { $left }.
shop-card_asked = ⏳ Requested: request #{ $id }. Its message below says what comes next.
shop-asked = Request #{ $id } sent: gift “{ $gift }”, { $points ->
        [one] { $points } point
       *[other] { $points } points
    } reserved. An admin hands it over to you; if that does not happen within { $days ->
        [one] { $days } day
       *[other] { $days } days
    }, the request closes and the points are free again.
shop-asked_popup = Requested: { $gift }
shop-kept = Nothing exchanged.
shop-withdrawn = Request #{ $id } (gift “{ $gift }”) withdrawn: { $points ->
        [one] { $points } point
       *[other] { $points } points
    } free again.
shop-withdrawn_popup = Request #{ $id } withdrawn
shop-handed_popup = Request #{ $id } (“{ $gift }”): handed over. The player's balance: { $balance }.
shop-cancelled_popup = Request #{ $id } (“{ $gift }”) is cancelled.

shop-button-gift = 🎁 { $name } · { $price }
shop-button-exchange = Exchange for { $price ->
        [one] { $price } point
       *[other] { $price } points
    }
shop-button-confirm = ✅ Yes, exchange { $price ->
        [one] { $price } point
       *[other] { $price } points
    }
shop-button-keep = ✖ No
shop-button-withdraw = ↩ Withdraw request #{ $id } ({ $gift })
shop-button-hand = ✅ Handed over
shop-button-cancel = ✖ Cancel

shop-notice = 🎁 <b>Gift request #{ $id }</b>
    Player: <b>{ $player }</b>
    Gift: “{ $gift }”, { $points ->
        [one] { $points } point
       *[other] { $points } points
    } (reserved; balance { $balance })
    Asked on { DATE($date, format: "%Y-%m-%d") }. Hand it over, then press “Handed over”.
shop-closed_notice = 🎁 Gift request #{ $id }: player <b>{ $player }</b>, gift “{ $gift }”, { $points ->
        [one] { $points } point
       *[other] { $points } points
    }. { $outcome }
shop-outcome-handed_over = ✅ Handed over ({ $by }).
shop-outcome-cancelled = ✖ Cancelled ({ $by }).
shop-outcome-withdrawn = ↩ Withdrawn by the player.
shop-outcome-expired = ⌛ Not handed over in time: closed.
shop-outcome-burned = 🔥 Closed: the player's points burned.
shop-told-handed_over = 🎁 Gift “{ $gift }” (request #{ $id }) is handed over: { $points ->
        [one] { $points } point
       *[other] { $points } points
    } exchanged. Enjoy!
shop-told-cancelled = Request #{ $id } (gift “{ $gift }”) was cancelled by an admin: { $points ->
        [one] { $points } point
       *[other] { $points } points
    } free again.
shop-told-expired = Request #{ $id } (gift “{ $gift }”) was not handed over within { $days ->
        [one] { $days } day
       *[other] { $days } days
    }: it is closed, and { $points ->
        [one] { $points } point
       *[other] { $points } points
    } are free again. Ask again with /gifts.
shop-told-burned = Request #{ $id } (gift “{ $gift }”) is closed: your points burned, the reserved ones too.
shop-request_line = #{ $id } <b>{ $player }</b> — “{ $gift }”, { $points ->
        [one] { $points } point
       *[other] { $points } points
    }, asked on { DATE($date, format: "%Y-%m-%d") }
shop-requests_head = <b>Open gift requests: { $count }</b>
shop-requests_none = No open gift requests.
shop-expiry_warning = Your open gift requests reserve { $reserved ->
        [one] { $reserved } point
       *[other] { $reserved } points
    } of them: unless the gifts are handed over by then, those requests close too.
shop-export_caption = Gift requests on { DATE($date, format: "%Y-%m-%d") }
shop-take_reserved = <b>{ $nick }</b> has { $balance ->
        [one] { $balance } point
       *[other] { $balance } points
    }, { $reserved ->
        [one] { $reserved } point
       *[other] { $reserved } points
    } of them reserved by open gift requests: at most { $available } can be taken now, not { $points }. Cancel a request first (/gift_requests).

shop-admin_only = Only the network's admins can do this.
shop-refused-unknown_gift = There is no such gift.
shop-refused-retired = Gift “{ $gift }” is no longer on sale.
shop-refused-out_of_stock = Gift “{ $gift }” is out of stock: someone took the last one.
shop-refused-price_changed = The price of “{ $gift }” is now { $price ->
        [one] { $price } point
       *[other] { $price } points
    }: open /gifts again.
shop-refused-insufficient = Not enough points: “{ $gift }” costs { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, you have { $available ->
        [one] { $available } point
       *[other] { $available } points
    } available.
shop-refused-blocked = Your account is blocked by the administration.
shop-refused-duplicate = You already asked for it: request #{ $id }.
shop-refused-unknown_request = There is no such request.
shop-refused-closed_handed_over = Request #{ $id } is already handed over.
shop-refused-closed_cancelled = Request #{ $id } is already cancelled.
shop-refused-closed_withdrawn = Request #{ $id } is already withdrawn.
shop-refused-closed_expired = Request #{ $id } is already closed: not handed over in time.
shop-refused-closed_burned = Request #{ $id } is already closed: the player's points burned.
shop-refused-not_yours = This is not your request.
shop-refused-name_taken = Gift #{ $id } is already called “{ $gift }” (/gift_restore { $id } if it is retired).
shop-refused-below_reserved = Open requests hold “{ $gift }” (reserved: { $reserved }): the stock cannot be lower. Cancel a request first.
shop-refused-handover_insufficient = Request #{ $id } needs { $points ->
        [one] { $points } point
       *[other] { $points } points
    }, the player has only { $balance } now: cancel it.
shop-refused-stale = This button is out of date: open /gifts (or /shop) again.

shop-admin-head = <b>🛍 Gift catalogue</b>: { $count ->
        [one] { $count } gift
       *[other] { $count } gifts
    }, open requests: { $requests } (/gift_requests)
shop-admin-empty = No gifts yet: press “New gift”.
shop-admin-line = #{ $id } <b>{ $name }</b> — { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, on the shelf: { $stock }, reserved: { $reserved }
shop-admin-retired_mark = {" "}· off sale
shop-admin-photo_yes = Photo: yes.
shop-admin-photo_no = Photo: none.
shop-admin-page_hint = Change it with the buttons below, or type: <code>/gift_edit { $id } price 30</code>, <code>/gift_edit { $id } stock 10</code>.
shop-admin-button-gift = #{ $id } { $name }
shop-admin-button-new = ➕ New gift
shop-admin-button-name = ✏ Name
shop-admin-button-price = 💰 Price
shop-admin-button-stock = 📦 Stock
shop-admin-button-photo = 🖼 Photo
shop-admin-button-nophoto = Remove the photo
shop-admin-button-retire = Take off sale
shop-admin-button-restore = Put back on sale
shop-admin-button-list = « Catalogue
shop-admin-button-skip = No photo
shop-admin-button-stop = Cancel
shop-admin-ask-name = Send the new name of “{ $gift }”.
shop-admin-ask-price = Send the new price of “{ $gift }” in points (now { $current }). Open requests keep the price they reserved.
shop-admin-ask-stock = Send how many “{ $gift }” are on the shelf (now { $current }; open requests reserve { $reserved }).
shop-admin-ask-photo = Send a photo of “{ $gift }”.
shop-admin-ask-new_name = Send the new gift's name.
shop-admin-ask-new_price = Gift “{ $gift }”: send its price in points.
shop-admin-ask-new_stock = Gift “{ $gift }”: send how many are on the shelf.
shop-admin-ask-new_photo = Gift “{ $gift }”: send a photo of it, or press “No photo”.
shop-admin-added = Gift “{ $gift }” is on sale.
shop-admin-changed = Gift “{ $gift }” changed.
shop-admin-retired = Gift “{ $gift }” is off sale (its open requests stay open).
shop-admin-restored = Gift “{ $gift }” is back on sale.
shop-admin-stopped = Nothing more asked.
shop-admin-photo_hint = To make this photo a gift's, reply to it with <code>/gift_photo ID</code> (the ID is in /shop).
shop-admin-nothing_asked = Nothing is being asked: open /shop.
shop-admin-want_photo = Send a photo (or press “Cancel”).
shop-admin-want_text = Send the value as text (or press “Cancel”).
shop-admin-bad_name = A gift's name: at most { $max ->
        [one] { $max } character
       *[other] { $max } characters
    }.
shop-admin-bad_price = A price: a whole number of points from 1 to { $max }.
shop-admin-bad_stock = A stock: a whole number from 0 to { $max }.
shop-admin-add_usage = Usage: <code>/gift_add PRICE STOCK NAME</code>, e.g. <code>/gift_add 30 5 Mug with the club's logo</code>
shop-admin-edit_usage = Usage: <code>/gift_edit ID price|stock|name VALUE</code>, e.g. <code>/gift_edit 3 price 40</code>
shop-admin-photo_usage = Usage: send a photo with the caption <code>/gift_photo ID</code> (or reply to a photo with it); <code>/gift_photo ID off</code> removes it.
shop-admin-retire_usage = Usage: <code>/gift_retire ID</code>
shop-admin-restore_usage = Usage: <code>/gift_restore ID</code>

# the club where a gift is collected (bot/handlers/shop.py, views/shop_texts.py)
shop-collect_at = 📍 Collect it at: { $club }.
shop-button-collect = 📍 At: { $club } (change)
shop-button-club = 📍 { $club }
shop-refused-club = That club does not hand gifts over: choose another one (open /gifts again).
shop-refused-no_clubs = No club of the network hands gifts over yet.
