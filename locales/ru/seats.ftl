# Места без Telegram (bot/game): ведущий сажает игрока по нику и нажимает кнопки за него.
# Ключи seats.* (id seats-*).

## seats

seats-for = <b>📵 №{ $seat } { $name }</b> играет без Telegram, кнопки нажимаете вы:
seats-lobby_mark = без Telegram
seats-played_by_host = Место №{ $seat } сегодня без Telegram: за него нажимает ведущий.
seats-not_yours = Эта кнопка не ваша: за место без Telegram нажимает только ведущий этой игры.
seats-add-usage = Использование: <code>/addseat НИК [m|f]</code> — место для игрока без Telegram; его карта и кнопки придут ведущему.
seats-add-ok = { $nick } за столом на месте №{ $seat } без Telegram: карту и кнопки получит ведущий.
seats-add-new = { $nick }: создан аккаунт без Telegram, место №{ $seat }. Карту и кнопки получит ведущий.
seats-add-already = { $nick } уже за столом: место №{ $seat }.
seats-add-other_game = { $nick }: уже в игре №{ $game }.
seats-add-blocked = { $nick }: аккаунт заблокирован администрацией.
seats-unseat-usage = Использование: <code>/unseat НИК</code>
seats-unseat-ok = { $nick } больше не за столом.

commands-addseat = Место без Telegram: /addseat НИК [m|f]
commands-unseat = Убрать игрока из набора: /unseat НИК
seats-offline_account = { $nick } играет без Telegram: ответить на предложение некому.

## the table's picture in the club chat (with the day's first post; every card at the end)

seats-picture-day = Игра №{ $game } — день { $day }
seats-picture-end = Игра №{ $game } — итог: все карты
