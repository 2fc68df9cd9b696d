# The host's Mini App (bot/miniapp/server.py): the live table on the host's phone.
miniapp-title = Game #{ $game }: the host's table
miniapp-loading = Loading the table…
miniapp-paused = paused
miniapp-votes = The vote so far
miniapp-vote = №{ $seat } → №{ $target }
miniapp-choices = Tonight's choices
miniapp-noscript = This page needs JavaScript: open it from your panel in Telegram.
miniapp-night = Night { $n }
miniapp-day = Day { $n }
miniapp-voter = №{ $seat } votes now
miniapp-choice = №{ $seat } { $role } → №{ $target }
miniapp-jailed = jailed
miniapp-offline = no Telegram
miniapp-blocked = blocked the bot
miniapp-acted = acted
miniapp-dead = dead
miniapp-yes = Yes
miniapp-close = Close
miniapp-cancel = Cancel
miniapp-refused = This table cannot be opened here.
miniapp-no_init_data = Open this table from the button on your panel in Telegram.
miniapp-offline_net = No connection to the bot; trying again…
miniapp-unauthorized = Telegram's proof of who you are is missing, wrong or more than an hour old: open the table again from your panel.
miniapp-bad_request = The action was not understood; nothing changed.
miniapp-action-deal = Deal the cards
miniapp-action-invite = Invite the signed-up
miniapp-action-preset_club = The club's set ({ $count ->
        [one] { $count } card
       *[other] { $count } cards
    })
miniapp-action-preset_default = The standard set ({ $count ->
        [one] { $count } card
       *[other] { $count } cards
    })
miniapp-action-seat = Move a player
miniapp-action-fate_mode_host = I draw the lots
miniapp-action-fate_mode_bot = The bot draws the lots
miniapp-action-night = Start the night
miniapp-action-day = Announce the day
miniapp-action-vote = Start the vote
miniapp-action-fate = Draw the shoot-out
miniapp-action-extend = +{ $seconds } s
miniapp-action-pause = Pause
miniapp-action-resume = Resume
miniapp-action-tech = Technical death
miniapp-action-unseat = Unseat a player
miniapp-action-speak = Floor for a prisoner
miniapp-action-end = End the game
miniapp-pick-tech = Tap the seat that leaves the game.
miniapp-pick-unseat = Tap the seat whose player leaves the table.
miniapp-pick-speak = Tap the prisoner who gets the floor.
miniapp-pick-fate = Tap the seat the draw sends away (the tied ones are lit).
miniapp-pick-seat_from = Tap the player to move.
miniapp-pick-seat_to = Tap the seat for { $seat }.
miniapp-confirm-tech = Technical death for { $seat }? This cannot be undone.
miniapp-confirm-unseat = Take { $seat } off the table?
miniapp-confirm-end = End the game now? Nobody gets points for it; the deal is revealed.
miniapp-timeout = The table did not answer in time, and nothing was changed: try again.
miniapp-unconfirmed = The table did not confirm in time: look at it before you try again.

# A shorter window inside the phase, beside the phase's own countdown.
miniapp-window-mafia = The Mafia agree
miniapp-window-turn = №{ $seat }'s turn
