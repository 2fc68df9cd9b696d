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
miniapp-pick-speak = Нажмите заключённого, которому дать слово.
miniapp-pick-fate = Жребий: нажмите место того, кто выбывает (подсвечены участники перестрелки).
miniapp-pick-seat_from = Нажмите игрока, которого пересадить.
miniapp-pick-seat_to = Куда сядет { $seat }? Нажмите место.
miniapp-confirm-tech = Объявить техническим трупом: { $seat }? Отменить нельзя.
miniapp-confirm-unseat = Убрать из-за стола: { $seat }?
miniapp-confirm-end = Прервать игру сейчас? Баллов за неё никто не получит, все карты откроются.
miniapp-timeout = Бот не ответил вовремя, ничего не изменилось: попробуйте ещё раз.
miniapp-unconfirmed = Бот не подтвердил действие вовремя: проверьте стол, прежде чем нажимать снова.

# Окно короче фазы, рядом с её собственным обратным отсчётом.
miniapp-window-mafia = Мафия договаривается
miniapp-window-turn = Голосует №{ $seat }
