# Тексты игры (bot/game), ключи game.* (id game-*).
# В общий чат клуба до конца игры не должно попадать ни одно название карты.

## game

game-nobody = никто
game-and = и
game-lobby-empty = За столом пока никого.
game-seat = №{ $seat } { $name }
game-not_found = Эта игра не найдена или уже закончилась.
game-none_in_chat = В этом чате сейчас нет игры. Ведущий открывает набор командой /newgame.
game-not_host = Это может сделать только ведущий этой игры.
game-not_host_rights = Открыть игру может администратор чата или ведущий клуба.
game-already_open = В этом чате уже идёт игра №{ $game }. Прервать её: /endgame.
game-stale = Эта кнопка устарела: этот этап игры уже закончился.
game-paused = Игра на паузе. Подождите, пока ведущий её продолжит.
game-busy = Сначала нужно закончить текущий этап игры.
game-aborted = Игра прервана ведущим. Баллы за неё не начисляются, штрафы за нарушения возвращены.
game-aborted_ok = Игра прервана.
game-restarted = Бот перезапустился; игра продолжается.
game-blocked_bot = { $sex ->
        [f] { $who } заблокировала бота: сообщения ей не доходят.
        [m] { $who } заблокировал бота: сообщения ему не доходят.
       *[other] { $who }: бот заблокирован в личном чате, сообщения не доходят.
    } Игра идёт дальше: пока бот заблокирован, ночной ход этого игрока пропадает, а голос уходит в себя.
game-evening = Голосование окончено. Следующую ночь начнёт ведущий.
game-card =
    <b>Ваша карта</b> (игра №{ $game }, место №{ $seat }): <b>{ $role }</b>
    Команда: { $team }
    { $about }
game-lobby-text =
    <b>Игра №{ $game }: набор игроков</b> ({ $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    })
    { $seats }

    Нажмите «Играю», чтобы сесть за стол. Если бот ещё не запущен у вас в личном чате, откройте его кнопкой ниже.{ $friendly }
game-lobby-friendly =
    {""}

    🤝 <b>Товарищеская игра</b>: клуб ещё не одобрен сетью, баллы за эту игру не начисляются и не списываются, в рейтинге и статистике она не учитывается.
game-lobby-closed_expired = <b>Игра №{ $game }: набор закрыт</b> — за { $hours ->
        [one] { $hours } час
        [few] { $hours } часа
       *[many] { $hours } часов
    } карты так и не раздали. Места свободны.
game-lobby-closed_host_left = <b>Игра №{ $game }: набор закрыт</b> — ведущий вышел из чата. Места свободны.
game-lobby-join = Играю
game-lobby-leave = Выйти
game-lobby-open_bot = Открыть бота
game-join-host = Ведущий видит все карты и не может играть за этим столом.
game-join-not_registered = Сначала запустите бота в личном чате: { $link }
game-join-blocked = Ваш аккаунт заблокирован администрацией: играть нельзя.
game-join-no_nick = Чтобы играть и копить баллы, нужен ник: /nick НИК в личном чате с ботом.
game-join-closed = Набор в эту игру закрыт.
game-join-already = Вы уже за столом: место №{ $seat }.
game-join-other_game = Вы уже записаны в игру №{ $game }.
game-join-full = За столом нет свободных мест.
game-join-ok = Вы за столом: место №{ $seat } (игра №{ $game }).
game-leave-not_joined = Вас нет за этим столом.
game-leave-ok = Вы вышли из-за стола.
game-reseat-unknown = За столом нет игрока с ником { $nick }.
game-reseat-bad_number = Место — число от 1 до { $max }.
game-reseat-ok = { $nick } теперь на месте №{ $seat }.
game-reseat-usage = Использование: <code>/seat НИК МЕСТО</code>
game-roles-to_host = Состав этой игры отправлен ведущему в личный чат.
game-roles-unknown = Не знаю такой карты: { $name }. Карты: { $cards }; «Мафия*3» — три карты.
game-roles-show = <b>Состав ({ $count ->
        [one] { $count } карта
        [few] { $count } карты
       *[many] { $count } карт
    })</b>: { $roles }
game-fate-mode_host = В перестрелке жребий тянет ведущий — в этой и в следующих играх клуба.
game-fate-mode_bot = В перестрелке жребий тянет бот — в этой и в следующих играх клуба.
game-fate-host_draws = Перестрелка: { $tied }. Жребий тянет ведущий.
game-fate-ask = Перестрелка: { $tied }. Тяните жребий: кто выбывает?
game-fate-drawn = Жребий вытянут: выбывает { $who }.
game-fate-bot_drew = Время вышло, и жребий вытянул бот: выбывает { $who }.
game-fate-accepted = По жребию выбывает { $who }.
game-fate-usage = Использование: <code>/fate host</code> или <code>/fate bot</code>
game-fate-too_late = Кто тянет жребий в перестрелке, решают до первой ночи или дня; эта игра уже идёт.
game-deal-already = Карты уже розданы.
game-deal-first = Сначала раздайте карты: /deal
game-deal-size = В составе { $cards ->
        [one] { $cards } карта
        [few] { $cards } карты
       *[many] { $cards } карт
    }, а за столом { $seats ->
        [one] { $seats } игрок
        [few] { $seats } игрока
       *[many] { $seats } игроков
    }. Исправьте состав: /roles
game-deal-done =
    <b>Карты розданы</b> ({ $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }). Каждый получил свою карту в личном чате (/myrole — показать ещё раз).
    Отпечаток раздачи (SHA-256): <code>{ $commitment }</code>
    После игры бот раскроет ключ, и любой сможет проверить, что карты не подменялись.
game-deal-ok = 🎴 Карты розданы.
game-myrole-none = Вы сейчас не играете.
game-myrole-sent = Ваша карта отправлена ещё раз.
game-friend-menu = «Давай дружить»: для кого заказать иммунитет?
game-friend-no_lobby = Заказать «Давай дружить» можно только за столом, до раздачи карт.
game-friend-nobody = За этим столом некому заказать «Давай дружить».
game-friend-dropped = Заказ «Давай дружить» для игрока { $who } больше не подходит (изменилась рассадка) и не учтён.
game-friend-ask_announce = Иммунитет получит { $who }. Когда иммунитет сработает, можно объявить, что его заказали вы?
game-friend-announce_yes = Да, назвать
game-friend-announce_no = Нет, тайно
game-friend-announce_1 = имя можно назвать
game-friend-announce_0 = имя не называть
game-friend-chosen = Выбрано.
game-friend-duplicate = Вы уже заказали «Давай дружить» в этой игре.
game-friend-host_ask = Заказ «Давай дружить»: { $orderer } → { $holder } ({ $announce }). Принять?
game-friend-accept = Принять
game-friend-decline = Отклонить
game-friend-ordered = Заказ отправлен ведущему.
game-friend-too_late = Карты уже розданы: заказы закрыты.
game-friend-unknown = Этот заказ не найден.
game-friend-already = Этот заказ уже принят.
game-friend-accepted = Ведущий принял ваш заказ «Давай дружить»: иммунитет получит { $who }.
game-friend-declined = Ведущий отклонил ваш заказ «Давай дружить» для игрока { $who }.
game-friend-decided_yes = Заказ принят: иммунитет получит { $who }.
game-friend-decided_no = Заказ отклонён: { $who } иммунитета не получит.
game-night-no_targets = 🌙 Ночь { $night }. Этой ночью вам некого выбрать.
game-night-start = 🌙 <b>Ночь { $night }.</b> Город засыпает. Все, кто может действовать, получили кнопки в личном чате. На выбор — { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-night-start_late = 🌙 <b>Ночь { $night }.</b> Город засыпает. Все, кто может действовать, получили кнопки в личном чате.
game-night-started = Ночь началась.
game-night-prompt = 🌙 Ночь { $night }. { $action }
game-night-prompt_mafia =
    🌙 Ночь { $night }. { $action }
    Выбор вашей команды сейчас:
    { $picks }
    { $agree }
    Можно передумать, пока Мафия не договорится или не кончится время.
game-night-prompt_mafia_locked =
    🌙 Ночь { $night }. Выбор команды закрыт:
    { $picks }
    { $target }
game-night-pick_none = выбора пока нет
game-night-pick_none_locked = без выбора
game-night-agree_chief = На договорённость — { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    } с начала ночи; если Мафия не договорится, решает Шеф Мафии.
game-night-agree_you = На договорённость — { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    } с начала ночи; если Мафия не договорится, решаете вы: вы — Шеф Мафии.
game-night-agree_none = На договорённость — { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    } с начала ночи; если Мафия не договорится, общего выстрела Мафии этой ночью не будет.
game-night-target = Цель Мафии: { $who }.
game-night-target_chief = Цель Мафии: { $who } (решил Шеф Мафии).
game-night-target_none = Мафия не договорилась: общего выстрела этой ночью нет.
game-night-chosen = Ваш выбор принят: { $who }.
game-night-mafia_locked = Выбор вашей команды уже закрыт.
game-night-same = Это и так ваш выбор.
game-night-already = Вы уже сделали выбор этой ночью.
game-night-accepted = Принято: { $who }.
game-action-mafia_pick = Кого Мафия убивает этой ночью?
game-action-kill = Кого вы убиваете этой ночью?
game-action-block = Кого вы лишаете ночного действия?
game-action-heal = Кого вы лечите этой ночью?
game-action-challenge = Кого вы выбираете этой ночью? Если это игрок Мафии, погибнете вы оба — даже если Доктор лечил кого-то из вас. Если мирный житель — ничего не произойдёт.
game-action-jail = Кого вы сажаете в тюрьму?
game-action-check = Кого вы проверяете?
game-action-buyout = Кого из заключённых вы выкупаете?
game-day-start = ☀️ <b>День { $day }.</b> Обсуждение. Голосование начнёт ведущий.
game-day-started = День начался.
game-vote-started = Голосование началось.
game-vote-prompt = 🗳 Ваша очередь: за кого вы голосуете? ({ $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    })
game-vote-chosen = Ваш голос: { $who }.
game-vote-already = Вы уже проголосовали.
game-vote-not_your_turn = Сейчас голосуете не вы: дождитесь своей очереди.
game-vote-accepted = Голос принят: { $who }.
game-vote-missed = Время вышло: вы не успели проголосовать.
game-cancel-window = По итогу голосования выбывает { $who }. Итог голосования можно отменить ещё { $seconds ->
        [one] { $seconds } секунду
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-cancel-window_late = По итогу голосования выбывает { $who }. Итог голосования ещё можно отменить.
game-cancel-ask = По итогу голосования выбывает { $who }. Вы можете отменить итог голосования (один раз за игру). { $seconds ->
        [one] Осталась { $seconds } секунда
        [few] Осталось { $seconds } секунды
       *[many] Осталось { $seconds } секунд
    }.
game-cancel-button = Отменить итог голосования
game-cancel-accepted = Итог голосования отменён.
game-cancel-done = Вы отменили итог голосования, никто не выбывает: { $who } остаётся в игре.
game-cancel-done_other = Итог голосования отменён, никто не выбывает: { $who } остаётся в игре.
game-cancel-expired = Время вышло, итог голосования в силе: выбывает { $who }.
game-last_word-start = { $who }: последнее слово, { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-last_word-start_late = { $who }: последнее слово.
game-last_word-over = { $who }: последнее слово окончено.
game-last_word-after = { $who }: последнее слово — следом, когда договорят те, кто говорит сейчас.
game-speak-start = { $who } (в тюрьме) получает слово: { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-speak-start_late = { $who } (в тюрьме) получает слово.
game-speak-given = { $by } отдаёт своё время; слово получает { $who } (в тюрьме): { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-speak-given_late = { $by } отдаёт своё время; слово получает { $who } (в тюрьме).
game-speak-over = { $who }: время окончено.
game-speak-bad_giver = Отдать своё время может только живой игрок, который не сидит в тюрьме.
game-speak-usage = Использование: <code>/speak МЕСТО [ОТ_КОГО]</code>
game-tech-ok = 💀 { $who } — технический труп.
game-speak-ok = 🎤 Слово получает { $who }.
game-tech-usage = Использование: <code>/tech МЕСТО</code>
game-stage-lobby = набор игроков
game-stage-dealt = карты розданы
game-stage-night = ночь
game-stage-day = день, обсуждение
game-stage-vote = голосование
game-stage-fate = перестрелка: жребий ведущего
game-stage-cancel = итог голосования: ещё можно отменить
game-stage-evening = после голосования
game-stage-over = игра окончена
game-stage-aborted = игра прервана
game-status-text =
    <b>Игра №{ $game }</b>: { $stage }{ $paused }
    До конца этапа: { $deadline }{ $voters }
    Живых: { $alive }
game-status-voters = Ещё не проголосовали: { $seats }
game-status-paused = {" "}(пауза)
game-status-deadline = { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }
game-status-night_host = Этой ночью ещё не выбрали: { $seats }
game-pause-already = Игра уже на паузе.
game-pause-done = ⏸ Игра на паузе.
game-pause-not_paused = Игра не на паузе.
game-pause-resumed = ▶️ Игра продолжается.
game-extend-bad = Продлить можно на 1…{ $max ->
        [one] { $max } секунду
        [few] { $max } секунды
       *[many] { $max } секунд
    }: <code>/extend 30</code>
game-extend-nothing = Сейчас нечего продлевать.
game-extend-done = ⏱ Время продлено на { $seconds ->
        [one] { $seconds } секунду
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
game-end-points =
    <b>Баллы за игру</b>
    { $lines }
game-end-friendly = 🤝 <b>Товарищеская игра</b>: баллы не начислены и не списаны, игра нигде не учитывается.
game-end-points_line = { $who }: { $total } ({ $detail })
game-end-points_line_none = { $who }: { $total }
game-end-seed =
    <b>Раздача</b>
    { $lines }
    Ключ: <code>{ $seed }</code>
    Отпечаток: <code>{ $commitment }</code>
    { $check }
game-end-key =
    <b>Ключ раздачи</b>: <code>{ $seed }</code>
    Отпечаток: <code>{ $commitment }</code>
    { $check }
game-end-check = Ключ и карты по местам дают этот отпечаток: любой может проверить, что карты не подменялись.
game-end-check_link = Проверить, что карты не подменялись: { $url }
game-summary-choices = Ходы
game-summary-blocked = Лишены ночного действия
game-summary-common_target = Общий выбор Мафии
game-summary-saved = Спасены
game-summary-died = Погибли
game-summary-checks = Проверки
game-summary-verdict = Итог голосования
game-summary-cancelled_by = Кто отменил итог голосования
game-summary-by_doctor = лечение Доктора
game-summary-by_sportsman = Спортсмена не убить выстрелом
game-summary-by_lucky = удача Счастливчика: все выстрелы этой ночи мимо
game-summary-by_friend = иммунитет «Давай дружить»
game-summary-no_verdict = По голосованию никто не выбыл.
game-summary-quiet = Ничего не произошло.
game-summary-mafia_yes = Мафия
game-summary-mafia_no = не Мафия
game-ev-open_immunities =
    <b>Открытые иммунитеты</b> (первая ночь и первый день):
    { $lines }
game-ev-open_immunities_none = Открытых иммунитетов в этой игре нет.
game-ev-immunity_line = №{ $seat } { $name } — { $what }
game-ev-night_deaths = 🌅 Ночь { $night } окончена. Город просыпается. Этой ночью погибли: { $seats }.
game-ev-night_deaths_none = 🌅 Ночь { $night } окончена. Город просыпается. Этой ночью никто не погиб.
# one death: the verb agrees with the player (погиб/погибла), or stands with «игрок»
game-ev-night_death = 🌅 Ночь { $night } окончена. Город просыпается. { $sex ->
        [f] Этой ночью погибла { $who }.
        [m] Этой ночью погиб { $who }.
       *[other] Этой ночью погиб игрок { $who }.
    }
game-ev-friend_saved = Иммунитет «Давай дружить»: { $who } остаётся в игре.
game-ev-friend_saved_by = Иммунитет «Давай дружить»: { $who } остаётся в игре. Кто заказал: { $by }.
game-ev-jailed = В тюрьме: { $seats }.
game-ev-released = Из тюрьмы выходят: { $seats }.
game-ev-released_one = Из тюрьмы выходит { $who }.
game-ev-check_mafia = Проверка: { $who } — <b>Мафия</b>.
game-ev-check_civilian = Проверка: { $who } — <b>не Мафия</b>.
game-ev-check_no_result = Этой ночью проверка не дала результата.
game-ev-night_summary =
    <b>Итоги ночи (только для ведущего)</b>
    { $text }
game-ev-day_summary =
    <b>Итоги дня (только для ведущего)</b>
    { $text }
game-ev-mafia_team =
    <b>Ваша команда</b>:
    { $lines }
game-ev-vote_tally =
    <b>Итоги голосования, день { $day }</b>
    { $lines }
game-ev-shootout = Перестрелка: { $tied }. По жребию выбывает { $who }.
game-ev-shootout_drawn = По жребию выбывает { $who }.
game-ev-vote_failed = Голосование не состоялось: поровну голосов набрали { $tied }. Никто не выбывает.
game-ev-verdict_cancelled = Итог голосования отменён, никто не выбывает: { $who } остаётся в игре.
game-ev-condemned_died = { $who } покидает игру по итогам голосования.
game-ev-technical_death = { $who } — технический труп (решение ведущего).
game-ev-game_over =
    🏁 <b>Игра окончена: { $winner }</b>
    { $lines }
game-winner-civilians = победили мирные жители
game-winner-mafia = победила Мафия
game-winner-draw = ничья
game-immunity-newbie = Новичок
game-immunity-first_day_killed = Убит в первые сутки
game-team-mafia = Мафия
game-team-civilians = мирные жители
game-role-mafia = Мафия
game-role-mafia_chief = Шеф Мафии
game-role-mafia_killer = Киллер Мафии
game-role-marilyn = Мэрэлин
game-role-marilyn_sister = Сестра Мэрэлин
game-role-doctor = Доктор
game-role-maniac = Маньяк
game-role-sportsman = Спортсмен
game-role-judge = Судья
game-role-policeman = Полицейский
game-role-lucky = Счастливчик
game-role-lawyer = Адвокат
game-role-lawyer_brother = Брат адвоката
game-role-oligarch = Олигарх
game-role-oligarch_brother = Брат олигарха
# short names a host types in /roles (several: separated by |)
game-role_alias-mafia_chief = Шеф|Шеф Мафии
game-role_alias-mafia_killer = Киллер|Киллер Мафии
game-role_alias-marilyn_sister = Сестра|Сестра Мэрилин|Сестра Мерлин
game-role_alias-marilyn = Мэрилин|Мерилин|Мерлин
game-role_alias-policeman = Комиссар|Шериф
game-role_alias-doctor = Врач
game-role_alias-lawyer_brother = Брат адвоката
game-role_alias-oligarch_brother = Брат олигарха
game-about-mafia = Ночью вместе с остальной Мафией выбираете, кого убить.
game-about-mafia_chief = Ночью вместе с Мафией выбираете, кого убить; если Мафия не договорилась, решаете вы.
game-about-mafia_killer = Каждую ночь убиваете одного игрока сами, отдельно от общего выбора Мафии.
game-about-marilyn = Ночью лишаете одного игрока ночного действия.
game-about-marilyn_sister = Ночью лишаете одного игрока ночного действия.
game-about-doctor = Ночью лечите одного игрока (не себя): этой ночью его не убьёт ни один выстрел.
game-about-maniac = Ночью убиваете одного игрока.
game-about-sportsman = Ночью выбираете игрока: если это игрок Мафии, погибаете вы оба, даже если Доктор лечил кого-то из вас; если мирный житель — ничего не происходит. Ночью вас не убить выстрелом.
game-about-judge = Ночью сажаете игрока в тюрьму: он не действует и не голосует.
game-about-policeman = Ночью проверяете игрока: из Мафии он или нет.
game-about-lucky = Ночью не действуете; в первую ночь, когда в вас стреляют, вас не убьёт ни один выстрел.
game-about-lawyer = Один раз за игру можете отменить итог голосования и спасти игрока от казни (но не себя).
game-about-lawyer_brother = Один раз за игру можете отменить итог голосования и спасти игрока от казни (но не себя).
game-about-oligarch = Ночью можете выкупить игрока из тюрьмы: если он мирный житель, утром он выйдет на свободу, а если из Мафии — в тюрьме будете сидеть вы оба.
game-about-oligarch_brother = Ночью можете выкупить игрока из тюрьмы: если он мирный житель, утром он выйдет на свободу, а если из Мафии — в тюрьме будете сидеть вы оба.
game-reason-survived_day = пережитый день
game-reason-survived_night = пережитая ночь
game-reason-survived = пережитые дни и ночи
game-reason-vote_for_mafia = голос против Мафии
game-reason-vote_for_civilian = голос против мирного
game-reason-lawyer_save = спасение мирного жителя
game-reason-mafia_shot = выстрел Мафии в мирного
game-reason-killer_shot = выстрел Киллера Мафии в мирного
game-reason-team_win = победа команды
game-reason-sole_survivor = победа в одиночку
game-rule-game_over = Игра уже окончена.
game-rule-phase_order = Сейчас этого сделать нельзя: ночь и день идут по очереди.
game-rule-not_at_table = Вы не за этим столом.
game-rule-actor_dead = Вы выбыли из игры и не можете действовать.
game-rule-actor_jailed = Вы в тюрьме и не можете действовать.
game-rule-no_night_action = У вашей карты нет ночного действия.
game-rule-target_unknown = На этом месте никого нет.
game-rule-target_self = Нельзя выбрать себя.
game-rule-target_dead = Этот игрок уже выбыл.
game-rule-target_jailed = Этот игрок уже в тюрьме.
game-rule-target_not_jailed = Этот игрок не в тюрьме.
game-rule-target_immune = У этого игрока открытый иммунитет: ведущий такой выбор не примет. Выберите другого игрока.
game-rule-voter_dead = Вы выбыли из игры и не голосуете.
game-rule-voter_jailed = Вы в тюрьме и не голосуете.
game-rule-not_a_lawyer = Отменить итог голосования может только тот, у кого есть это право.
game-rule-nothing_to_cancel = Отменять нечего: по голосованию никто не выбывает.
game-rule-lawyer_dead = Вы выбыли и не можете отменить итог голосования.
game-rule-lawyer_jailed = Вы в тюрьме и не можете отменить итог голосования.
game-rule-lawyer_used = Вы уже отменяли итог голосования в этой игре.
game-rule-lawyer_self = Спасти от казни себя нельзя.
game-rule-fate_not_tied = Жребий выбирает только из участников перестрелки.
game-rule-fate_without_shootout = Перестрелки нет.
game-rule-friend_self = Нельзя заказать иммунитет для себя.
game-rule-friend_sex_unknown = Нужно знать пол обоих игроков (/sex в личном чате).
game-rule-friend_same_sex = «Давай дружить» заказывают только для игрока противоположного пола.
game-rule-friend_adjacent = Нельзя заказать иммунитет соседу по столу.
game-rule-friend_spouse = Нельзя заказать иммунитет для того, с кем вы в браке.
game-rule-already_dead = Этот игрок уже выбыл.
game-rule-table_size = За столом должно быть от 6 до 24 игроков.
game-rule-duplicate_card = Эта карта может быть в составе только один раз.
game-rule-too_few_mafia = Карт Мафии должно быть не меньше 30% стола.
game-rule-no_civilians = В составе нужен хотя бы один мирный.
game-rule-bad_seat = Место — это номер: 1, 2, 3…
game-rule-duplicate_seat = Одно и то же место названо дважды.

## commands

commands-seat = Пересадить игрока: /seat НИК МЕСТО
commands-fate = Кто тянет жребий в перестрелке: /fate host или bot
commands-speak = Слово заключённому: /speak МЕСТО [ОТ_КОГО]

## голосование, которое не может состояться (у каждого игрока за столом открытый иммунитет)

game-ev-vote_impossible = 🗳 <b>День { $day }: сегодня голосовать не за кого.</b> У каждого игрока за столом открытый иммунитет («Новичок» или «Убит в первые сутки»), он действует первую ночь и первый день. Голосования сегодня нет.
game-vote-impossible = Сегодня голосовать не за кого: день окончен.
game-evening_no_vote = Следующую ночь начнёт ведущий.

## ведущий без пульта (его личный чат не принимает бота): посты клуба называют команду

game-evening_typed = Голосование окончено. Следующая ночь: /night
game-evening_no_vote_typed = Следующая ночь: /night
game-day-start_typed = ☀️ <b>День { $day }.</b> Обсуждение. Голосование начнёт ведущий: /vote
