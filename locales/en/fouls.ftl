# The host's whistle: fouls, fines and their undoing (bot/game/rooms/fouls.py), keys foul.*;
# the club's foul settings (bot/handlers/settings.py), keys club.settings.foul*.

foul-reason-out_of_turn = speaking out of turn
foul-reason-at_night = speaking at night
foul-reason-gesture = a gesture
foul-reason-other = another breach
foul-reason-noted = { $reason }: “{ $note }”
foul-fine-none = A warning: no points are taken.
foul-fine-taken = Fine: { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
foul-fine-short = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }; the balance held less, so { $points ->
        [one] { $points } point was
       *[other] { $points } points were
    } taken.
foul-fine-capped = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }; the network takes at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    } of fines from a player in one game, so { $points ->
        [one] { $points } point was taken.
       *[other] { $points } points were taken.
    }
foul-fine-capped_out = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, but the player's fines in this game have reached the network's cap of { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    }: nothing was taken.
foul-fine-reserved = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }; the rest of the balance is reserved for the player's gift request, so { $points ->
        [one] { $points } point was
       *[other] { $points } points were
    } taken.
foul-fine-reserved_out = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, but the whole balance is reserved for the player's gift request: nothing was taken.
foul-fine-empty = The club's fine is { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, but the balance was empty: nothing was taken.
foul-done = 🟨 Foul { $number } of the game: { $who }, { $reason }. { $fine }
foul-player = 🟨 The host recorded a foul against you in game #{ $game }: { $reason }. { $fine }
    Your fouls in this game: { $count }.
foul-club = 🟨 Foul: { $who }, { $reason }. Their fouls in this game: { $count }.
foul-offer-text = ⚠️ Fouls of { $who } in this game: { $count } (the club's limit: { $limit }). Remove the player from the game (technical death)? You decide.
foul-offer-tech = 💀 Technical death for №{ $seat }
foul-offer-keep = ▶️ Keep playing
foul-offer-taken = 💀 { $who }: technical death.
foul-offer-kept = ▶️ { $who } plays on.
foul-offer-undone = ↩️ The foul was undone: { $who } plays on.
foul-offer-gone = { $who } is out of the game or the foul was undone: nothing to decide.
foul-offer-over = { $who }: the game is over, nothing left to decide.
foul-offer-stale = Nothing to decide: { $who } is out of the game or the foul was undone.
foul-back = {" "}{ $points ->
        [one] { $points } point is
       *[other] { $points } points are
    } given back.
foul-undone-done = ↩️ Foul { $number } against { $who } is undone.{ $back }
foul-undone-player = ↩️ The foul recorded against you in game #{ $game } ({ $reason }) was a mistake and is undone.{ $back }
foul-undone-club = ↩️ The foul against { $who } is undone.
foul-usage = Usage: <code>/foul SEAT [reason]</code>; the reason: turn, night, gesture, or your own words.
foul-unfoul_usage = Usage: <code>/unfoul [NUMBER]</code> undoes a foul recorded by mistake (without a number: the latest one).
foul-already = This foul is recorded already.
foul-none = No foul of this game is left to undo.
foul-unknown = There is no foul { $number } in this game.
foul-undone_already = Foul { $number } is undone already.
foul-busy = The player's balance changed meanwhile; record the foul again.
foul-no_game = You host no open game.
commands-foul = A foul: /foul SEAT [reason]
commands-unfoul = Undo a foul: /unfoul [NUMBER]

club-settings-foul_fine = 🟨 A foul costs { $points ->
        [one] { $points } point
       *[other] { $points } points
    }.
club-settings-foul_warning = 🟨 A foul is a warning: no points are taken.
club-settings-foul_offer = 💀 From a player's foul { $limit } in a game, the host is offered the technical death.
club-settings-foul_no_offer = 💀 The technical death is never offered for fouls.
club-settings-foul_public_on = 📣 The club chat hears of each foul.
club-settings-foul_public_off = 📣 The club chat hears nothing of fouls.
club-settings-foul_points_btn = 🟨 Fine { $sign }1
club-settings-foul_limit_btn = 💀 Foul limit { $sign }1
club-settings-foul_public_btn = 📣 Fouls in the chat: on/off
club-settings-foul_range = The limit is 1 to { $limit } fouls (0: the technical death is never offered).
club-settings-fine_cap = A foul's fine is 0 to { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    }: the network's cap on one foul's fine.
club-settings-fine_hint = ⌨️ Type <code>/settings fine N</code> to set the fine at once (0 to { $cap }: the network's cap).
club-settings-fine_usage = Usage: <code>/settings fine N</code>, N a whole number of points (0: a warning only).
club-settings-fine_set = 🟨 A foul now costs { $points ->
        [one] { $points } point.
       *[other] { $points } points.
    }
club-settings-fine_off = 🟨 A foul now costs nothing: a warning only.

# the host's panel (bot/game/panel/render.py)
panel-btn-foul = 🟨 Foul
panel-btn-unfoul = ↩️ Undo a foul
panel-mark-fouls = {" "}🟨{ $count }
panel-pick-foul = 🟨 A foul: whose seat?
panel-pick-foul_reason = 🟨 A foul against { $who }: what for?
panel-pick-unfoul = ↩️ Which foul was recorded by mistake?
panel-confirm-unfoul = ↩️ Undo foul { $number } against { $who }? Its fine is given back.
panel-unfoul-line = { $number }. №{ $seat } { $name }: { $reason }

# the Mini App (bot/miniapp/server.py)
miniapp-action-foul = 🟨 Foul
miniapp-action-unfoul = ↩️ Undo a foul
miniapp-pick-foul = A foul: tap the seat.
miniapp-pick-foul_reason = A foul against { $seat }: what for?
miniapp-pick-unfoul = Which foul was recorded by mistake?

# the game's points at its end (bot/game/rooms/results.py): a seat's fines, net
game-reason-fines = fines

# a fine's ledger row (/balance, /stats, the web pages: views/texts.py), keys game.reason.*
game-reason-foul_out_of_turn = foul: speaking out of turn
game-reason-foul_at_night = foul: speaking at night
game-reason-foul_gesture = foul: a gesture
game-reason-foul_other = foul: another breach
game-reason-foul_undone = a foul undone (recorded by mistake)
game-reason-game_aborted = a fine given back: the game was aborted

# a player's record (/stats: views/texts.py; the web's pages: web/templates/)
stats-fouls = Fouls: { $fouls } ({ NUMBER($rate, maximumFractionDigits: 2) } per game)
web-player-fouls = Fouls
web-game-fouls = Fouls
web-game-foul_number = №
web-game-foul_who = Player
web-game-foul_reason = For
web-game-foul_phase = When
web-game-foul_fine = Fine
web-game-foul_undone = undone (recorded by mistake)
