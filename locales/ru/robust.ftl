# Robustness: blocked accounts in a running game (bot/telegram/middlewares.py, bot/game/rooms/host.py)
game-blocked_account-refused = Ваш аккаунт заблокирован администрацией: действия в игре не принимаются.
game-blocked_account-host = { $who }: аккаунт заблокирован администрацией. Нажатия и команды этого игрока в игре не принимаются; решите, как быть дальше (например, /tech { $seat }).
