# Тексты клуба: переезд клуба (/import, /link), честные ники, /settings, меню, лимиты.

## Лимиты на повторы
club-complain-limit = Сегодня вы уже отправили { $limit ->
        [one] { $limit } жалобу
        [few] { $limit } жалобы
       *[many] { $limit } жалоб
    } — это дневной лимит. Попробуйте завтра.
spouse-already_proposed = Вы уже сделали предложение этому игроку. Дождитесь ответа.

## Честные ники
nick-lookalike = Ник <b>{ $nick }</b> похож на занятый ник <b>{ $existing }</b>. Выберите ник, который выглядит иначе.
nick-reserved = Ник <b>{ $nick }</b> уже есть в таблице игроков клуба. Если это вы, отправьте <code>/nick { $nick }</code> — администратор подтвердит, и ник станет вашим.
nick-stacked_marks = Слишком много знаков над одной буквой: не больше двух разных.
club-lookalikes-none = Похожих ников нет.
club-lookalikes-head = <b>Похожие ники</b> (групп: { $count }):
club-lookalikes-group = • { $names }

## Переезд клуба
club-import-usage = Отправьте таблицу клуба документом — .xlsx или CSV (через запятую, точку с запятой или табуляцию; UTF-8 или Windows-1251) — с подписью <code>/import</code> (проверка: ничего не записывается) или <code>/import apply</code>; либо ответьте на файл командой <code>/import apply</code>. Если нужен не первый лист: <code>/import ЛИСТ</code> или <code>/import apply ЛИСТ</code>.
    В первой строке — названия столбцов (регистр и пробелы не важны; прочие столбцы пропускаются):
    • ник, обязателен: nickname, nick, player, ник, никнейм, игрок, псевдоним
    • баллы, обязательны: points, score, balance, баллы, очки, балл, баланс
    • сыграно игр: games_played, games, игр, игры, сыграно игр, количество игр, число игр
    • последняя игра (ДД.ММ.ГГГГ, ДД.ММ.ГГ, ГГГГ-ММ-ДД или ячейка с датой; нужна при баллах или играх): last_game_date, last game, last game date, last played, последняя игра, дата последней игры
    • id в Telegram: telegram_id, tg id, id telegram, телеграм id, id телеграм, id в телеграм, id в телеграме
    • имя пользователя Telegram: username, telegram username, tg username, логин, юзернейм, логин в телеграм, логин в телеграме
    В числах допустимы пробелы между тысячами (1 200). <code>/export</code> и <code>/export xlsx</code> выгружают таблицу с теми же столбцами.
club-import-too_big = Файл слишком большой (не больше { $size } КБ).
club-import-download_failed = Не удалось скачать файл из Telegram. Ничего не импортировано; отправьте его ещё раз.
club-import-file_too_big = Файл слишком большой (не больше { $value } КБ). Ничего не импортировано.
club-import-file_not_spreadsheet = Это не таблица. Отправьте её как .xlsx или как текст CSV. Ничего не импортировано.
club-import-file_unknown_encoding = Кодировка текста — не UTF-8 и не Windows-1251. В Excel: «Сохранить как» → «CSV UTF-8»; в Google Таблицах: «Скачать» → «CSV». Ничего не импортировано.
club-import-file_old_format = Формат .{ $value } не читается. Сохраните таблицу как .xlsx (книга Excel) и отправьте снова. Ничего не импортировано.
club-import-file_encrypted = Файл .xlsx защищён паролем. Снимите пароль (или сохраните копию без него) и отправьте снова. Ничего не импортировано.
club-import-file_broken = Файл повреждён и не читается. Сохраните его заново в программе электронных таблиц и отправьте. Ничего не импортировано.
club-import-file_no_sheet = Листа «{ $value }» нет. Листы в файле: { $sheets }. Ничего не импортировано.
club-import-file_formula = В ячейке { $value } формула. Замените формулы значениями (скопируйте, затем «Специальная вставка» → «Только значения») и отправьте файл снова. Ничего не импортировано.
club-import-file_duplicate_column = Два столбца означают одно и то же: { $value }. Оставьте один. Ничего не импортировано.
club-import-source_xlsx = Файл: .xlsx, лист «{ $sheet }».
club-import-source_csv = Файл: CSV, { $encoding }, разделитель — { $delimiter }.
club-import-encoding_cp1251 = кодировка Windows-1251 (так сохраняет старый Excel: проверьте, что имена читаются верно)
club-import-encoding_utf8bom = UTF-8 с BOM
club-import-encoding_utf8 = UTF-8
club-import-delimiter_semicolon = точка с запятой
club-import-delimiter_tab = табуляция
club-import-delimiter_comma = запятая
club-import-columns = Столбцы: { $columns }.
club-import-ignored = Пропущены (неизвестные) столбцы: { $columns }.
club-import-refused_file = Отклонённые строки, причина — в последнем столбце. Исправьте их и отправьте этот файл снова с подписью <code>/import</code>.
club-import-reason_column = причина
admin-export_usage = Использование: <code>/export</code> (CSV) или <code>/export xlsx</code> (книга Excel).
club-import-file_empty = Файл пуст: в первой строке должны быть названия столбцов.
club-import-file_missing_column = Нет обязательного столбца: { $value }. Ничего не импортировано.
club-import-file_too_many_rows = Слишком много строк (не больше { $value }). Ничего не импортировано.
club-import-dry = <b>Проверка, ничего не записано.</b> { $added ->
        [one] Добавится { $added } игрок
        [few] Добавятся { $added } игрока
       *[many] Добавится { $added } игроков
    } (сразу привязываются к аккаунтам Telegram: { $linked }); без изменений: { $unchanged }; отклонено строк: { $refused }.
club-import-done = <b>Импортировано:</b> { $added ->
        [one] { $added } игрок
        [few] { $added } игрока
       *[many] { $added } игроков
    } (привязаны к аккаунтам Telegram: { $linked }); без изменений: { $unchanged }; отклонено строк: { $refused }.
club-import-row = строка { $line }: { $why }
club-import-more = … и ещё { $count ->
        [one] { $count } строка
        [few] { $count } строки
       *[many] { $count } строк
    }
club-import-apply_hint = Чтобы записать, ответьте на файл командой <code>/import apply</code>.
club-import-why_bad_number = не целое число ≥ 0 ({ $value })
club-import-why_bad_date = неверная дата ({ $value }): ДД.ММ.ГГГГ, ДД.ММ.ГГ или ГГГГ-ММ-ДД, не в будущем
club-import-why_missing_date = баллы или игры без даты последней игры ({ $value })
club-import-why_bad_username = неверное имя пользователя Telegram ({ $value })
club-import-why_duplicate = повтор более ранней строки: { $value }
club-import-why_lookalike = похож на ник { $value }
club-import-why_taken = ник занят игроком ({ $value })
club-import-why_changed = ник { $value } уже импортирован с другими данными (повторный импорт ничего не меняет)
club-import-why_tg_other_nick = у этого аккаунта Telegram уже есть ник { $value }
club-import-why_nickname_too_short = слишком короткий ник ({ $value })
club-import-why_nickname_too_long = слишком длинный ник ({ $value })
club-import-why_nickname_bad_chars = в нике недопустимые символы ({ $value })
club-import-why_nickname_stacked_marks = в нике нагромождение знаков над буквой ({ $value })
club-import-why_nickname_no_letter_or_digit = в нике нет ни буквы, ни цифры ({ $value })
club-link-usage = Использование: <code>/link НИК</code> — подтвердить первую заявку на ник из таблицы клуба; <code>/link НИК ID</code> — отдать ник аккаунту с этим id.
club-link-not_found = Ник <b>{ $nick }</b> в таблице клуба не найден или уже отдан владельцу.
club-link-no_claim = Ник <b>{ $nick }</b> ещё никто не заявил (игрок отправляет <code>/nick { $nick }</code>); или укажите аккаунт: <code>/link { $nick } ID</code>.
club-link-no_account = Аккаунта с id { $id } в боте нет (игрок сначала отправляет боту /start).
club-link-done = <b>{ $nick }</b>: ник из таблицы клуба отдан владельцу, аккаунт: { $name } (id { $id }); { $points ->
        [one] начислен { $points } балл
        [few] начислено { $points } балла
       *[many] начислено { $points } баллов
    }.
club-link-notice = Ник <b>{ $nick }</b> из таблицы клуба теперь ваш: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }, сыграно игр: { $games }.
club-link-expired_notice = Ник <b>{ $nick }</b> из таблицы клуба теперь ваш (сыграно игр: { $games }). Его баллы сгорели: последняя игра была больше двух месяцев назад.
club-nick-claimed = Ник <b>{ $nick }</b> есть в таблице клуба. Администратор подтвердит, что это вы, и ник вместе с баллами станет вашим.
club-nick-claim_admin = Заявка на ник <b>{ $nick }</b> из таблицы клуба: { $name } (id { $id }). Подтвердить: <code>/link { $nick }</code>.
club-nick-claimed_other = Ник <b>{ $nick }</b> есть в таблице клуба, но его уже заявил другой аккаунт. Если ник ваш, напишите администратору.
club-start-claimed = Ваш логин в Telegram есть в таблице клуба, ник — <b>{ $nick }</b>. Администратор подтвердит, что это вы, и ник вместе с баллами станет вашим.
club-start-claim_admin = { $name } (id { $id }): логин @{ $username } есть в таблице клуба, ник — <b>{ $nick }</b>. Логин в Telegram мог перейти к другому человеку: убедитесь, что это тот же игрок, и подтвердите: <code>/link { $nick }</code>.

## Настройки клуба
club-settings-denied = Менять настройки могут только администраторы клуба и администраторы сети (и администраторы чата, пока у клуба нет своего администратора).
club-settings-usage = <code>/settings</code> показывает настройки; <code>/settings fine N</code> задаёт штраф за нарушение; ответьте на сообщение участника командой <code>/settings host add</code>, чтобы сделать его ведущим.
club-settings-head = <b>Настройки: { $title }</b>
    Язык: { $language }
club-settings-timer = { $name }: { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }
club-settings-t_night = Ночь
club-settings-t_mafia_agree = Договорённость Мафии
club-settings-t_vote_turn = Время на голос
club-settings-t_last_word = Последнее слово
club-settings-s_night = 🌙
club-settings-s_mafia_agree = 🤝
club-settings-s_vote_turn = 🗳
club-settings-s_last_word = 💬
club-settings-nudge = { $name } { $sign }{ $increment }
club-settings-fate_host = Перестрелки: жребий тянет ведущий.
club-settings-fate_bot = Перестрелки: жребий тянет бот.
club-settings-fate_toggle = 🎲 Сменить, кто тянет жребий
club-settings-hosts = 🎙 Ведущие ({ $count })
club-settings-presets = 🃏 Составы ({ $count })
club-settings-back = ← Назад
club-settings-hosts_head = <b>Ведущие</b> (в списке: { $count })
club-settings-host_line = • { $name } (id { $id })
club-settings-hosts_hint = Добавить: ответьте на сообщение участника командой <code>/settings host add</code>. Администраторы чата могут вести игры и без этого, если клуб это не отключил (<code>/staff chatadmins off</code>).
club-settings-remove = ✖ { $name }
club-settings-presets_head = <b>Сохранённые составы</b> (в списке: { $count })
club-settings-preset_line = { $size }: { $roles }
club-settings-remove_preset = ✖ { $size }
club-settings-saved = Сохранено.
club-settings-timer_range = Таймер — от { $min ->
        [one] { $min } секунды
        [few] { $min } секунд
       *[many] { $min } секунд
    } до { $max ->
        [one] { $max } секунды
        [few] { $max } секунд
       *[many] { $max } секунд
    }.
club-settings-no_such_host = Этого ведущего уже нет в списке.
club-settings-no_such_preset = Этот состав уже удалён.
club-settings-host_added = { $name } — в списке ведущих этого клуба.

## Меню и не тот чат
club-where-private = Эта команда работает в личном чате с ботом: { $link }
club-where-group = Эта команда работает в групповом чате клуба.
club-bad_seat = Места { $seat } нет: за столом { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }.
commands-settings = Настройки клуба (для администраторов)
commands-redeem = Обменять баллы: /redeem НИК БАЛЛЫ ПРИЧИНА
commands-adjust = Поправить баллы: /adjust НИК ±БАЛЛЫ ПРИЧИНА
commands-block = Заблокировать аккаунт
commands-unblock = Разблокировать аккаунт
commands-export = Балансы в CSV или .xlsx
commands-import = Импорт игроков клуба из .xlsx или CSV
commands-link = Отдать ник из таблицы клуба владельцу
commands-lookalikes = Похожие ники
commands-complaints = Жалобы
commands-bot_status = Состояние бота: процессы, очередь
club-import-why_already_here = этот аккаунт Telegram уже играет здесь как { $value } (повторный импорт посчитал бы его баллы дважды)
