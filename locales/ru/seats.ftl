# Места без Telegram (bot/game): ведущий сажает игрока по нику и нажимает кнопки за него.
# Ключи seats.* (id seats-*).

## seats

seats-for = <b>📵 №{ $seat } { $name }</b> играет без Telegram, кнопки нажимаете вы:
seats-lobby_mark = без Telegram
seats-played_by_host = Место №{ $seat } сегодня без Telegram: за него нажимает ведущий.
seats-not_yours = Эта кнопка не ваша: за место без Telegram нажимает только ведущий этой игры.
seats-add-usage = Использование: <code>/addseat НИК [m|f]</code> — место, за которое нажимает ведущий: игрок с Telegram сначала подтверждает в личном чате; карта и кнопки места придут ведущему.
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
seats-add-guest = { $nick } — гость этой игры без Telegram, место №{ $seat }: ник в сети за гостем не закрепляется, в рейтинг гость не попадает. Карту и кнопки получит ведущий.
seats-ask-text =
    Ведущий { $host } хочет посадить вас за стол игры №{ $game } в клубе «{ $club }»: за ваше место будет нажимать ведущий, результат игры засчитают вам.{ $friendly }
    Согласны?
seats-ask-friendly = {" "}Это товарищеская игра: баллы не начисляются.
seats-ask-yes = ✅ Да, посадите меня
seats-ask-no = Нет
seats-ask-sent = Отправлен вопрос игроку { $nick }: место №{ $seat } ждёт подтверждения в личном чате.
seats-ask-already = { $nick }: вопрос уже отправлен, ждём ответа.
seats-ask-lobby_line = №{ $seat } { $name } — ждёт подтверждения
seats-ask-closed = Этот вопрос уже закрыт: ответ не нужен.
seats-ask-declined = Хорошо: вас не посадят за стол игры №{ $game }.
seats-ask-seated = Вы за столом игры №{ $game }, место №{ $seat }: за вас нажимает ведущий.
seats-ask-closed_yes = Вы согласились: место за столом игры №{ $game } ваше.
seats-ask-closed_no = Вы отказались от места в игре №{ $game }.
seats-ask-closed_failed = Место в игре №{ $game } занять не удалось.
seats-ask-closed_deal = Карты игры №{ $game } уже розданы: игра идёт без вас.
seats-ask-closed_closed = Набор в игру №{ $game } закрыт.
seats-ask-host_yes = { $nick } подтверждает: место №{ $seat }, кнопки нажимаете вы.
seats-ask-host_no = { $nick }: ответ «нет», места за столом не будет.
seats-ask-host_failed = { $nick } подтверждает, но места не будет: уже в другой игре или стол полон.
seats-ask-host_deal = { $nick }: ответа до раздачи не было, игра идёт без этого места.
seats-ask-host_closed = { $nick }: ответа не было, набор закрыт.
seats-ask-closed_withdrawn = Ведущий отменил вопрос о месте в игре №{ $game }.
seats-ask-host_withdrawn = { $nick }: вопрос о месте отменён.
