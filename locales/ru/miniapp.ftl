# Mini App ведущего (bot/miniapp/server.py): живой стол на телефоне ведущего.
miniapp-title = Игра №{ $game }: стол ведущего
miniapp-loading = Загружаем стол…
miniapp-paused = пауза
miniapp-votes = Голоса
miniapp-vote = №{ $seat } → №{ $target }
miniapp-choices = Ходы этой ночи
miniapp-noscript = Для этой страницы нужен JavaScript: откройте её с пульта в Telegram.
miniapp-night = Ночь { $n }
miniapp-day = День { $n }
miniapp-voter = Голосует №{ $seat }
miniapp-choice = №{ $seat } { $role } → №{ $target }
miniapp-jailed = в тюрьме
miniapp-offline = без Telegram
miniapp-blocked = бот заблокирован
miniapp-acted = выбор сделан
miniapp-dead = вне игры
miniapp-yes = Да
miniapp-close = Закрыть
miniapp-cancel = Отмена
miniapp-refused = Этот стол отсюда не открыть.
miniapp-no_init_data = Откройте стол кнопкой на своём пульте в Telegram.
miniapp-offline_net = Нет связи с ботом; пробуем снова…
miniapp-unauthorized = Telegram не подтвердил, что это вы, или подтверждение старше часа: откройте стол заново с пульта.
miniapp-bad_request = Бот не понял, что нужно сделать; ничего не изменилось.
miniapp-action-deal = Раздать карты
miniapp-action-invite = Пригласить записавшихся
miniapp-action-preset_club = Состав клуба ({ $count ->
        [one] { $count } карта
        [few] { $count } карты
       *[many] { $count } карт
    })
miniapp-action-preset_default = Стандартный состав ({ $count ->
        [one] { $count } карта
        [few] { $count } карты
       *[many] { $count } карт
    })
miniapp-action-seat = Пересадить игрока
miniapp-action-fate_mode_host = Жребий тяну я
miniapp-action-fate_mode_bot = Жребий тянет бот
miniapp-action-night = Начать ночь
miniapp-action-day = Объявить день
miniapp-action-vote = Начать голосование
miniapp-action-fate = Жребий перестрелки
miniapp-action-extend = +{ $seconds } с
miniapp-action-pause = Пауза
miniapp-action-resume = Продолжить
miniapp-action-tech = Технический труп
miniapp-action-unseat = Убрать игрока
miniapp-action-speak = Слово заключённому
miniapp-action-end = Прервать игру
miniapp-pick-tech = Нажмите место игрока, который выбывает.
miniapp-pick-unseat = Нажмите место игрока, который уходит из-за стола.
miniapp-pick-speak = Нажмите на место заключённого, которому дать слово.
miniapp-pick-fate = Жребий: нажмите место того, кто выбывает (подсвечены участники перестрелки).
miniapp-pick-seat_from = Нажмите на место игрока, которого пересадить.
miniapp-pick-seat_to = Куда сядет { $seat }? Нажмите место.
miniapp-confirm-tech = Объявить техническим трупом: { $seat }? Отменить нельзя.
miniapp-confirm-unseat = Убрать из-за стола: { $seat }?
miniapp-confirm-end = Прервать игру сейчас? Баллов за неё никто не получит, все карты откроются.
miniapp-timeout = Бот не ответил вовремя, ничего не изменилось: попробуйте ещё раз.
miniapp-unconfirmed = Бот не подтвердил действие вовремя: проверьте стол, прежде чем нажимать снова.

# Окно короче фазы, рядом с её собственным обратным отсчётом.
miniapp-window-mafia = Мафия договаривается
miniapp-window-turn = Голосует №{ $seat }

# Приложение игрока (bot/miniapp/player.py): свои игры и рейтинг, подарки и вечера; открывается
# из /profile и кнопкой меню в личном чате с ботом.
miniapp-player-title = Мой клуб
miniapp-player-open = 📱 Открыть «Мой клуб»
miniapp-player-menu = Мой клуб
miniapp-player-noscript = Для этой страницы нужен JavaScript: откройте её из /profile или кнопкой меню в чате с ботом.
miniapp-player-no_init_data = Откройте эту страницу из чата с ботом: кнопкой под /profile или кнопкой меню.
miniapp-player-unauthorized = Подтверждение Telegram не пришло, не сходится или старше часа: откройте приложение заново из чата с ботом.
miniapp-player-not_registered = У вас ещё нет записи у бота: отправьте боту /start и откройте приложение снова.
miniapp-player-bad_request = Запрос не понят; ничего не изменилось.
miniapp-player-refused = Эту страницу здесь не открыть.
miniapp-player-offline = Нет связи с ботом; попробуйте ещё раз.
miniapp-player-close = Закрыть
miniapp-player-tab_profile = Профиль
miniapp-player-tab_games = Игры
miniapp-player-tab_shop = Подарки
miniapp-player-tab_evenings = Вечера
miniapp-player-tab_roles = Роли
miniapp-player-graph = Ваш рейтинг после каждой засчитанной игры
miniapp-player-roles = По картам
miniapp-player-sides = По командам
miniapp-player-roles_none = Засчитанных игр пока нет: карты, соперники и ночные убийства появятся после первой.
miniapp-player-role_card = Карта
miniapp-player-role_won = Побед
miniapp-player-role_everyone = У всех
miniapp-player-roles_note = «У всех» — как часто карта побеждает у всех, кому она выпадала: так видно, где выигрывает сама карта, а где — ваше мастерство. Пока у вас с картой меньше { $games ->
        [one] { $games } игры
        [few] { $games } игр
       *[many] { $games } игр
    }, доля мало о чём говорит: такие строки — серым цветом.
miniapp-player-rivals = С кем вы играете чаще всего
miniapp-player-rival = в одной команде: { $together } (побед { $won_together }), против: { $against } (побед { $won_against })
miniapp-player-killed_by = Кто убивал вас ночью
miniapp-player-killed = Кого убили ваши ночные выстрелы
miniapp-player-kill = { $role }: { $count }
miniapp-player-rating = Рейтинг мастерства
miniapp-player-requests = Ваши заявки (баллы в резерве, пока подарок не выдан)
miniapp-player-collect = Где забрать:
miniapp-player-no = ✖ Нет
miniapp-player-my_page = Моя страница на сайте
miniapp-player-how = Как считается рейтинг
miniapp-player-games_none = Сыгранных игр пока нет.
miniapp-player-evenings_none = В ваших клубах пока не объявлено ни одного вечера.
miniapp-player-no_photo = У этого подарка нет фото.
miniapp-player-played = Сыграно игр: { $games }
miniapp-player-game = Игра №{ $game }
miniapp-player-alive = { $sex ->
        [f] дожила до конца игры
        [m] дожил до конца игры
       *[other] в игре до конца
    }
miniapp-player-dead = { $sex ->
        [f] выбыла из игры
        [m] выбыл из игры
       *[other] вне игры к концу
    }
miniapp-player-fouls = { $fouls ->
        [one] { $fouls } нарушение
        [few] { $fouls } нарушения
       *[many] { $fouls } нарушений
    }
miniapp-player-gift = { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, осталось: { $left }
miniapp-player-evening = { $tables ->
        [one] { $tables } стол
        [few] { $tables } стола
       *[many] { $tables } столов
    } по { $seats }; записано: { $count } из { $capacity }{ $waiting ->
        [0] {""}
       *[other] , в листе ожидания: { $waiting }
    }
