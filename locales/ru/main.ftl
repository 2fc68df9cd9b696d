# Русские тексты (Project Fluent). Режим HTML; $переменные заполняет views/i18n.py (строки экранируются).
# Ключ в коде start.new = id start-new здесь. Каждый id должен быть и в en/ с теми же $переменными,
# числа — с формами множественного числа (tests/bot/test_i18n.py, tests/bot/test_plurals.py).

## start

start-new =
    Добро пожаловать в клуб «Мафия», { $name }! 🎭
    Выберите ник, чтобы копить баллы: <code>/nick НИК</code>. Все команды: /help
start-back = С возвращением, { $name }! Все команды: /help
start-lobby_not_found = Эта игра не найдена или набор в неё уже закрыт.
start-bad_payload = Эта ссылка недействительна. Все команды: /help

## help

help-private =
    <b>Бот клуба «Мафия»</b>
    /nick НИК — ваш ник (нужен, чтобы копить баллы)
    /profile — ваш профиль: рейтинг, карты, соперники и графики
    /lang — язык
    /sex — ваш пол (нужен для «Давай дружить»)
    /spouse НИК — указать в боте вашего супруга или супругу; /divorce — развод
    /balance — баллы, место в рейтинге и когда они сгорят
    /stats [НИК] — статистика: игры, карты, баллы
    /evenings — вечера клуба, на которые вы записаны: место или лист ожидания
    /top — рейтинг по баллам; /top rating — рейтинг мастерства; /top role КАРТА — лучшие игроки этой карты
    /season — текущий сезон и Зал славы
    /complain НИК ТЕКСТ — жалоба на поведение игрока (до { $complaints ->
        [one] { $complaints } жалобы
        [few] { $complaints } жалоб
       *[many] { $complaints } жалоб
    } в день)
    Во время игры: /myrole — ваша карта, /friend — заказать «Давай дружить»
help-admin =
    <b>Администратор</b>
    /redeem НИК БАЛЛЫ ПРИЧИНА — обменять баллы на подарок
    /adjust НИК БАЛЛЫ ПРИЧИНА — исправить баланс (БАЛЛЫ могут быть отрицательными)
    /block НИК [ПРИЧИНА], /unblock НИК
    /export [xlsx] — балансы в CSV или .xlsx
    /complaints — число жалоб
    /clubs — клубы; /club approve|refuse|suspend ID_ЧАТА, /club set ID_ЧАТА ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР
    /staff — команда сети: /staff clubadmin ID_ЧАТА add|remove НИК (владельцы ещё: /staff admin add|remove НИК)
    /network — пределы штрафов: <code>/network fine_cap N</code>, <code>/network game_fine_cap N</code>; сезоны: <code>/network season НАЧАЛО КОНЕЦ [НАЗВАНИЕ]</code>, <code>/network season delete НАЧАЛО</code>
    /void ИГРА ПРИЧИНА — аннулировать сыгранную игру (её баллы и штрафы)
help-club_admin =
    <b>Администратор клуба</b> ({ $clubs })
    /staff — ведущие вашего клуба: /staff host ID_ЧАТА add|remove НИК (в чате клуба: /staff host add НИК); ведут ли игры администраторы чата: /staff chatadmins ID_ЧАТА on|off
    /settings — в чате клуба: язык, таймеры, штраф за нарушение (/settings fine N, не выше предела сети), ведущие, составы
    /evening — в чате клуба: объявить вечер; /evenings — ваши вечера
    /void ИГРА ПРИЧИНА — аннулировать игру вашего клуба в течение 7 дней после её окончания
    Заявки на подарки, которые забирают в вашем клубе, приходят вам сюда, с кнопками ✅ Выдан / ✖ Отменить
    Часовой пояс клуба (по нему датируются игры и вечера) меняет администратор сети: попросите его отправить /club set с верным поясом
    В форуме сделайте бота администратором группы с правом «Управление темами»: тогда каждый стол играет в своей теме
help-group =
    <b>Бот клуба «Мафия»</b>
    Ведущий объявляет здесь игровой вечер: /evening (записаться — кнопкой под объявлением); в день вечера /invite приглашает записавшихся за стол.
    Ведущий проводит игру здесь: /newgame, /seat, /addseat, /unseat, /roles, /deal, /night, /day, /vote, /fate, /speak, /status, /foul, /unfoul, /tech, /pause, /resume, /extend, /endgame.
    Если столов в чате несколько, после /status, /deal, /night, /day, /vote, /pause, /resume, /endgame или /invite назовите номер стола, например /status 2.
    Игрокам: откройте бота в личном чате и нажмите «Запустить», затем — «Играю» под объявлением о наборе.
    /top — рейтинг клуба; /season — сезон и Зал славы; /stats НИК — статистика игрока (в личном чате с ботом).

## misc

misc-unknown_command = Неизвестная команда. Все команды: /help
misc-not_a_command = Я понимаю только команды. Все команды: /help
misc-error = Что-то пошло не так. Попробуйте позже.
misc-database_unavailable = База данных перезапускается, ничего не изменилось. Попробуйте ещё раз чуть позже.
misc-slow_down = Слишком много сообщений подряд. Подождите несколько секунд: что вы отправите сейчас, бот не прочитает.
misc-not_registered = Сначала нажмите /start.
misc-account_blocked = Ваш аккаунт заблокирован администрацией.
misc-none = —
misc-stale_button = Эта кнопка больше не действует.

## nick

nick-usage = Использование: <code>/nick НИК</code>. В нике от 3 до 24 символов: буквы, цифры, пробелы, _ и -.
nick-set = Ваш ник теперь <b>{ $nick }</b>.
nick-same = Ваш ник уже <b>{ $nick }</b>.
nick-taken = Ник <b>{ $nick }</b> занят. Выберите другой.
nick-too_short = Слишком короткий ник: нужно не меньше { $min ->
        [one] { $min } символа
        [few] { $min } символов
       *[many] { $min } символов
    }.
nick-too_long = Слишком длинный ник: не больше { $max ->
        [one] { $max } символа
        [few] { $max } символов
       *[many] { $max } символов
    }.
nick-bad_chars = В нике можно использовать только буквы, цифры, пробелы, _ и -.
nick-no_letter_or_digit = В нике нужна хотя бы одна буква или цифра.

## profile

profile-text =
    <b>Профиль</b>
    Имя: { $name }
    Ник: { $nick }
    Язык: { $lang }
    Пол: { $sex }
    { $spouse_sex ->
        [f] Супруга
        [m] Супруг
       *[other] Брак
    }: { $spouse }
    Сыграно игр: { $games }
    Аккаунт: { $status }
profile-no_nick = не задан (/nick НИК)
profile-status_ok = активен
profile-status_blocked = заблокирован

## lang

lang-prompt = Выберите язык:
lang-set = Язык: русский.
lang-name_ru = Русский
lang-name_en = English

## sex

sex-prompt = Укажите ваш пол — он нужен для иммунитета «Давай дружить»:
sex-set = Пол: { $sex }.
sex-m = мужской
sex-f = женский
sex-button_m = ♂ Мужской
sex-button_f = ♀ Женский

## spouse

spouse-usage = Использование: <code>/spouse НИК</code>
spouse-sent = Спросили игрока <b>{ $nick }</b>, супруги ли вы. Ждём ответа.
spouse-proposal = Игрок <b>{ $nick }</b> хочет отметить в боте, что вы супруги. Подтверждаете?
spouse-accept = ✅ Да
spouse-decline = ❌ Нет
spouse-married = Готово: в боте вы и <b>{ $nick }</b> — супруги. 💍
spouse-declined = Вы отклонили предложение игрока <b>{ $nick }</b>.
spouse-declined_notice = { $sex ->
        [f] <b>{ $nick }</b> отклонила ваше предложение.
        [m] <b>{ $nick }</b> отклонил ваше предложение.
       *[other] <b>{ $nick }</b>: ваше предложение отклонено.
    }
spouse-self = Указать супругом себя нельзя.
spouse-already_married = Кто-то из вас уже в браке (сначала /divorce).
spouse-no_proposal = Это предложение уже недействительно.
spouse-divorced = Брак с игроком <b>{ $nick }</b> расторгнут.
spouse-divorced_notice = { $sex ->
        [f] <b>{ $nick }</b> расторгла брак с вами.
        [m] <b>{ $nick }</b> расторг брак с вами.
       *[other] <b>{ $nick }</b>: брак с вами расторгнут.
    }
spouse-not_married = Вы не в браке.
spouse-need_nick = Сначала задайте ник: <code>/nick НИК</code>.

## balance

balance-text = <b>Баланс:</b> { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }
balance-rank = Место в рейтинге: { $rank } из { $total }
balance-unranked = Вы пока не в рейтинге.
balance-recent = <b>Последние начисления:</b>
balance-row = { DATE($day, format: "%d.%m.%Y") }  { SIGNED($points) }  { $reason }
balance-no_rows = Баллов пока нет.
balance-expires = Баллы сгорят { DATE($date, format: "%d.%m.%Y") }, если до этого вы не сыграете.
balance-no_expiry = Пока вы не сыграли ни одной игры, баллы не сгорают.

## ledger

ledger-game = игра №{ $game }: { $reason }
ledger-adjust = корректировка: { $reason }
ledger-redeem = подарок: { $reason }
ledger-expiry_burn = сгорели (2 месяца без игр)
ledger-block_burn = сгорели: аккаунт заблокирован

## top

top-header = <b>Рейтинг</b>
top-row = { $rank }. { $nick } — { $points }
top-empty = Баллов пока ни у кого нет.

## complain

complain-usage = Использование: <code>/complain НИК ТЕКСТ</code>
complain-sent = Жалоба на игрока <b>{ $nick }</b> записана. Спасибо.
complain-self = Нельзя пожаловаться на себя.

## admin

admin-denied = Эта команда только для администраторов.
admin-not_found = Игрока с ником <b>{ $nick }</b> нет.
admin-redeem_usage = Использование: <code>/redeem НИК БАЛЛЫ ПРИЧИНА</code> (БАЛЛЫ — целое положительное число).
admin-adjust_usage = Использование: <code>/adjust НИК БАЛЛЫ ПРИЧИНА</code> (БАЛЛЫ — целое число, не 0).
admin-block_usage = Использование: <code>/block НИК [ПРИЧИНА]</code>
admin-unblock_usage = Использование: <code>/unblock НИК</code>
admin-insufficient = У игрока <b>{ $nick }</b> только { $balance ->
        [one] { $balance } балл
        [few] { $balance } балла
       *[many] { $balance } баллов
    }, нельзя списать { $points }.
admin-adjust_insufficient = Нельзя списать { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }: у игрока <b>{ $nick }</b> { $balance ->
        [one] { $balance } балл
        [few] { $balance } балла
       *[many] { $balance } баллов
    }.
admin-invalid_amount = Недопустимое число баллов: { $points }.
admin-redeemed = <b>{ $nick }</b>: { $points ->
        [one] списан { $points } балл
        [few] списано { $points } балла
       *[many] списано { $points } баллов
    } (подарок: { $reason }). Баланс: { $balance }.
admin-redeemed_notice = Подарок: { $reason }. { $points ->
        [one] Списан { $points } балл
        [few] Списано { $points } балла
       *[many] Списано { $points } баллов
    }, баланс: { $balance }.
admin-adjusted = <b>{ $nick }</b>: баланс изменён на { SIGNED($points) } ({ $reason }). Баланс: { $balance }.
admin-adjusted_notice = Ваш баланс изменён на { SIGNED($points) }: { $reason }. Баланс: { $balance }.
admin-blocked = <b>{ $nick }</b>: аккаунт заблокирован, баллы сгорели.
admin-blocked_notice = Ваш аккаунт заблокирован администрацией. Причина: { $reason }
admin-already_blocked = <b>{ $nick }</b>: аккаунт уже заблокирован.
admin-unblocked = <b>{ $nick }</b>: аккаунт разблокирован.
admin-unblocked_notice = Ваш аккаунт разблокирован. С возвращением!
admin-not_blocked = <b>{ $nick }</b>: аккаунт не заблокирован.
admin-no_reason = не указана
admin-export_caption = Балансы на { DATE($date, format: "%d.%m.%Y") }
admin-complaints_header = <b>Жалобы</b>
admin-complaints_row = { $nick } — { $count }
admin-complaints_empty = Жалоб нет.
admin-status_header = <b>Состояние</b> · версия { $version } · работает { $days } д { $hours } ч { $minutes } мин
admin-status_one_process = Один процесс (SQLite).
admin-status_process = • Процесс { $session }: { $roles }; { $clubs ->
        [one] { $clubs } клуб
        [few] { $clubs } клуба
       *[many] { $clubs } клубов
    }
admin-status_process_this = ▶ Процесс { $session }: { $roles }; { $clubs ->
        [one] { $clubs } клуб
        [few] { $clubs } клуба
       *[many] { $clubs } клубов
    }
admin-status_role_poller = принимает обновления
admin-status_role_sender = отправляет сообщения
admin-status_role_expiry = следит за сгоранием баллов
admin-status_load = Открытых игр: { $games }. За последнюю минуту: обновлений { $updates }, отправлено сообщений { $messages }.
admin-status_outbox = Очередь отправки: ждут { $pending }, самое давнее ждёт { $seconds ->
        [one] { $seconds } секунду
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
admin-status_outbox_empty = Очередь отправки пуста.

## expiry

expiry-warning = ⏳ Ваш ник <b>{ $nick }</b> и { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    } сгорят { DATE($date, format: "%d.%m.%Y") }. Приходите на игру до этого дня, чтобы их сохранить!
expiry-burned = Ваш ник и баллы сгорели: два месяца без игр. Выберите новый ник: <code>/nick НИК</code>.

## commands

commands-start = Запустить бота
commands-help = Помощь
commands-nick = Задать ник
commands-profile = Ваш профиль
commands-lang = Язык
commands-sex = Ваш пол
commands-spouse = Указать супруга или супругу
commands-divorce = Развод
commands-balance = Баллы и рейтинг
commands-top = Рейтинг
commands-season = Сезон и Зал славы
commands-complain = Пожаловаться на игрока
commands-myrole = Ваша карта
commands-friend = Заказать «Давай дружить»
commands-panel = Вернуть пульт ведущего
commands-newgame = Открыть набор в игру
commands-roles = Состав карт: показать или задать
commands-deal = Раздать карты
commands-night = Начать ночь
commands-day = Начать день
commands-vote = Начать голосование
commands-status = Состояние игры
commands-tech = Технический труп: /tech МЕСТО
commands-pause = Пауза
commands-resume = Продолжить игру
commands-extend = Добавить времени: /extend СЕКУНДЫ
commands-endgame = Прервать игру

## оповещения операторов (OPS_CHAT_ID)

ops-alert-outbox = ⚠️ Очередь отправки отстаёт: самое давнее сообщение ждёт с { $since } UTC; ждут: { $pending }.
ops-alert-telegram_429 = ⚠️ Telegram отвечает 429 (слишком много запросов), за последнюю минуту: { $count }.
ops-alert-database = ⚠️ База данных не отвечает, с { $since } UTC.
ops-alert-stuck = ⚠️ Игра №{ $game } застряла: время этапа вышло в { $since } UTC, и с тех пор ничего не происходит.
ops-alert-malformed = ⚠️ Пропущены обновления, которые бот не смог прочитать или для которых у него нет обработчика (в журнале: «update skipped»).
ops-resolved-outbox = ✅ Решено: очередь отправки больше не отстаёт (длилось { $lasted }).
ops-resolved-telegram_429 = ✅ Решено: ответов 429 больше нет (длилось { $lasted }).
ops-resolved-database = ✅ Решено: база данных снова отвечает (длилось { $lasted }).
ops-resolved-stuck = ✅ Решено: игра №{ $game } больше не стоит (длилось { $lasted }).
ops-resolved-malformed = ✅ Решено: десять минут без пропущенных обновлений (длилось { $lasted }).
ops-event-takeover = ℹ️ Процесс { $lost } потерян: процесс { $session } взял на себя { $what } (восстановлено за { $lasted }).
ops-event-takeover_unknown = ℹ️ Один из процессов потерян: процесс { $session } взял на себя { $what } (восстановлено за { $lasted }).
ops-what-roles = роли ({ $roles })
ops-what-clubs = клубы ({ $clubs })
