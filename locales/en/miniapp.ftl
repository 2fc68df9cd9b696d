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

# The player's Mini App (bot/miniapp/player.py): the player's own record, the gift shop and the
# evenings, opened from /profile and the private chat's menu button.
miniapp-player-title = My club
miniapp-player-open = 📱 Open my club
miniapp-player-menu = My club
miniapp-player-noscript = This page needs JavaScript: open it from /profile or the menu button in the chat with the bot.
miniapp-player-no_init_data = Open this page from the chat with the bot: the button under /profile or the menu button.
miniapp-player-unauthorized = Telegram's proof of who you are is missing, wrong or more than an hour old: open the app again from the chat with the bot.
miniapp-player-not_registered = You have no account with the bot yet: send /start to the bot, then open the app again.
miniapp-player-bad_request = The request was not understood; nothing changed.
miniapp-player-refused = This page cannot be opened here.
miniapp-player-offline = No connection to the bot; try again.
miniapp-player-close = Close
miniapp-player-tab_profile = Profile
miniapp-player-tab_games = Games
miniapp-player-tab_shop = Gifts
miniapp-player-tab_evenings = Evenings
miniapp-player-tab_roles = Roles
miniapp-player-graph = Your rating after each counted game
miniapp-player-roles = By card
miniapp-player-sides = By side
miniapp-player-roles_none = No counted game yet: the cards, the rivals and the kills come with the first.
miniapp-player-role_card = Card
miniapp-player-role_won = Won
miniapp-player-role_everyone = Everyone
miniapp-player-roles_note = “Everyone”: how often the card wins for all who got it, so a card that often wins is not mistaken for skill. Under { $games ->
        [one] { $games } game
       *[other] { $games } games
    } with a card its share says little yet (greyed).
miniapp-player-rivals = The players you meet most
miniapp-player-rival = same side: { $together } (won { $won_together }), against: { $against } (won { $won_against })
miniapp-player-killed_by = Killed at night by
miniapp-player-killed = Your shots killed at night
miniapp-player-kill = { $role }: { $count }
miniapp-player-rating = Skill rating
miniapp-player-requests = Your requests (their points are reserved until the gift is handed over)
miniapp-player-collect = Collect it at:
miniapp-player-no = ✖ No
miniapp-player-my_page = My public page
miniapp-player-how = How the rating works
miniapp-player-games_none = No finished games yet.
miniapp-player-evenings_none = No evening is announced in your clubs yet.
miniapp-player-no_photo = This gift has no photo.
miniapp-player-played = Finished games: { $games }
miniapp-player-game = Game #{ $game }
miniapp-player-alive = alive at the end
miniapp-player-dead = out before the end
miniapp-player-fouls = { $fouls ->
        [one] { $fouls } foul
       *[other] { $fouls } fouls
    }
miniapp-player-gift = { $price ->
        [one] { $price } point
       *[other] { $price } points
    }, left: { $left }
miniapp-player-evening = { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    } of { $seats }; signed up: { $count } of { $capacity }{ $waiting ->
        [0] {""}
       *[other] , waitlist: { $waiting }
    }
