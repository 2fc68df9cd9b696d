# Robustness: blocked accounts in a running game (bot/telegram/middlewares.py, bot/game/rooms/host.py)
game-blocked_account-refused = Your account is blocked by the administration: your game actions are not accepted.
game-blocked_account-host = The account of { $who } is blocked by the administration. Their presses and commands in the game are not accepted; decide what to do (e.g. /tech { $seat }).
