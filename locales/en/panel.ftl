# The host's live panel in private (bot/game/panel/live.py), keys panel.* (ids panel-*).

panel-head = 🎩 <b>Game #{ $game }</b>: { $stage }{ $paused }
panel-paused = {" "}— ⏸ paused
panel-night = night { $number }
panel-day = day { $number }
panel-deadline = ⏱ { $time } left
panel-left = ⏸ { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } left when the game resumes
panel-seats = <b>Seats</b>
panel-mark-dead = {" "}💀
panel-mark-jailed = {" "}⛓ jailed
panel-mark-offline = {" "}📵
panel-mark-blocked = {" "}🚫 blocked the bot
panel-mark-acted = {" "}✅
panel-mark-voter = {" "}👈 votes now
panel-choices = <b>Tonight so far</b>
panel-votes = <b>Votes</b>
panel-tied = 🎲 A shoot-out: draw the condemned below.
panel-composition = 🃏 Composition: { $roles }
panel-fate-host = 🎲 Shoot-outs: drawn by you
panel-fate-bot = 🎲 Shoot-outs: drawn by the bot
panel-pick-tech = 💀 Technical death: whose seat?
panel-confirm-tech = 💀 Remove { $who } from the game (technical death)? The table hears it at once.
panel-confirm-end = ⛔ End the game now? Nobody gets points for it; the deal is revealed.
panel-pick-seat = 🪑 Whom do you move?
panel-pick-place = 🪑 Where does { $who } sit?
panel-pick-unseat = 🚪 Whom do you take off the table?
panel-confirm-unseat = 🚪 Take { $who } off the table?
panel-pick-preset = 🃏 Which composition?
panel-pick-speak = 🎤 Which prisoner gets the floor?
panel-pick-giver = 🎤 { $who } gets the floor. Whose time is given?
panel-over = The game is over. This panel is closed.
panel-btn-night = 🌙 Start the night
panel-btn-day = ☀️ Announce the day
panel-btn-vote = 🗳 Start the vote
panel-btn-pause = ⏸ Pause
panel-btn-resume = ▶️ Resume
panel-btn-extend = ⏱ +{ $seconds } s
panel-btn-tech = 💀 Technical death
panel-btn-end = ⛔ End the game
panel-btn-deal = 🎴 Deal the cards
panel-btn-seat = 🪑 Seat a player
panel-btn-unseat = 🚪 Unseat a player
panel-btn-speak = 🎤 Floor for a prisoner
panel-btn-floor = 🎤 The floor from the host
panel-btn-preset = 🃏 Composition
panel-btn-fate-host = 🎲 I draw the lots
panel-btn-fate-bot = 🎲 The bot draws the lots
panel-btn-yes = ✔️ Yes
panel-btn-back = ↩️ Back
panel-btn-open = 🌐 Open the table
panel-preset-club = The club's ({ $count ->
        [one] { $count } card
       *[other] { $count } cards
    })
panel-preset-default = Standard ({ $count ->
        [one] { $count } card
       *[other] { $count } cards
    })
panel-shown = The panel is below.
panel-none = You host no open game.
panel-moved = The panel moved below.

# A shorter window inside the phase, beside the phase's own clock (panel.deadline).
panel-window-mafia = 🤝 the Mafia agree: { $time }
panel-window-turn = 👈 this turn: { $time }
