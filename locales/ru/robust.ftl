# Robustness: blocked accounts in a running game (bot/telegram/middlewares.py, bot/game/rooms/host.py)
game-blocked_account-refused = Ваш аккаунт заблокирован администрацией: действия в игре не принимаются.
game-blocked_account-host = { $who }: аккаунт заблокирован администрацией. Кнопки и команды этого игрока в игре не действуют; решите, как быть дальше (например, /tech { $seat }).
