# Достижения (standing/achievements.py): короткое название и одна строка «как получить» на
# каждое достижение каталога (achievement-<id>-name / -text); значок — из каталога. У
# достижения с уровнями уровень показан числом («Доктор на посту · 25»).

achievement-games-name = Завсегдатай
achievement-games-text = Сыгранные засчитанные игры.
achievement-wins-name = Победитель
achievement-wins-text = Победы вашей команды, если вас не объявили техническим трупом.
achievement-civilian_wins-name = Защитник города
achievement-civilian_wins-text = Победы за мирных жителей.
achievement-mafia_wins-name = Семейное дело
achievement-mafia_wins-text = Победы за Мафию.
achievement-win_streak-name = Серия побед
achievement-win_streak-text = Победы подряд.
achievement-survivor-name = Выживший
achievement-survivor-text = Победы, в которых вы дожили до конца игры.
achievement-lone_wolf-name = Волк-одиночка
achievement-lone_wolf-text = Из Мафии за столом остались только вы — и выиграли в одиночку.
achievement-last_civilian-name = Последняя надежда
achievement-last_civilian-text = Из мирных за столом остались только вы — и город победил.
achievement-untouched_civilians-name = Ни царапины
achievement-untouched_civilians-text = Мирные победили, и все мирные живы.
achievement-untouched_mafia-name = Чистая работа
achievement-untouched_mafia-text = Мафия победила, и вся Мафия жива.
achievement-first_night-name = Первая жертва
achievement-first_night-text = Вас убили в первую же ночь.
achievement-bulletproof-name = Бронежилет
achievement-bulletproof-text = В вас стреляли три ночи за одну игру — а вы живы.
achievement-fair_play-name = Честная игра
achievement-fair_play-text = Игры подряд без нарушений.
achievement-shootout_survived-name = Перестрелка
achievement-shootout_survived-text = Попали в перестрелку на двоих или троих — и остались в игре.
achievement-friend_saved-name = Друг познаётся в беде
achievement-friend_saved-text = Вас спас иммунитет «Давай дружить».
achievement-vote_hunter-name = Зоркий глаз
achievement-vote_hunter-text = Играя за мирных жителей, вы в одной игре три дня голосовали против Мафии.
achievement-season_top-name = Десятка лучших сезона
achievement-season_top-text = Вы закончили сезон в десятке лучших рейтинга сезона сети.
achievement-doctor_saves-name = Доктор на посту
achievement-doctor_saves-text = С картой Доктора вы спасли игрока от ночного выстрела.
achievement-doctor_triple-name = Чудо-доктор
achievement-doctor_triple-text = С картой Доктора вы трижды за одну игру спасли игрока от ночного выстрела.
achievement-sportsman_duel-name = Нокаут
achievement-sportsman_duel-text = С картой Спортсмена вы забрали с собой игрока Мафии.
achievement-sportsman_hero-name = Чемпион
achievement-sportsman_hero-text = С картой Спортсмена вы выбрали ночью игрока Мафии: он выбыл, а вы остались в живых.
achievement-sportsman_tough-name = Крепкий орешек
achievement-sportsman_tough-text = С картой Спортсмена вы пережили ночной выстрел.
achievement-lucky_escape-name = Родиться в рубашке
achievement-lucky_escape-text = С картой Счастливчика вы пережили ночной выстрел.
achievement-lucky_twice-name = Дважды везунчик
achievement-lucky_twice-text = С картой Счастливчика вы пережили выстрелы в две ночи одной игры.
achievement-lawyer_save-name = Оправдан
achievement-lawyer_save-text = С картой Адвоката или Брата адвоката вы отменили итог голосования и спасли мирного жителя.
achievement-marilyn_mafia-name = Роковая женщина
achievement-marilyn_mafia-text = С картой Мэрэлин или Сестры Мэрэлин вы лишили ночного действия игрока Мафии.
achievement-marilyn_maniac-name = Укротительница
achievement-marilyn_maniac-text = С картой Мэрэлин или Сестры Мэрэлин вы лишили ночного действия Маньяка.
achievement-policeman_mafia-name = На верном следу
achievement-policeman_mafia-text = С картой Полицейского вы нашли проверкой игрока Мафии.
achievement-policeman_three-name = Великий сыщик
achievement-policeman_three-text = С картой Полицейского вы нашли проверками троих из Мафии за одну игру.
achievement-judge_mafia-name = За решёткой
achievement-judge_mafia-text = С картой Судьи вы посадили игрока Мафии в тюрьму.
achievement-oligarch_bail-name = Под залог
achievement-oligarch_bail-text = С картой Олигарха или Брата олигарха вы выкупили мирного жителя из тюрьмы.
achievement-maniac_mafia-name = Охотник на Мафию
achievement-maniac_mafia-text = С картой Маньяка вы убили игрока Мафии.
achievement-killer_kills-name = Чистильщик
achievement-killer_kills-text = С картой Киллера Мафии вы убили своим выстрелом мирного жителя.
achievement-chief_wins-name = Крёстный отец
achievement-chief_wins-text = Победы с картой Шефа Мафии.
achievement-policeman_hunted-name = Без Полицейского
achievement-policeman_hunted-text = Играя за Мафию, вы убили Полицейского ночным выстрелом.

# как показано одно достижение: значок и название, уровень — если уровней несколько
achievement-title = { $icon } <b>{ $name }</b>
achievement-title-level = { $icon } <b>{ $name }</b> · { $level }
achievement-line = { $title } — { $text }
# путь достижения с уровнями к следующему уровню
achievement-progress = { $icon } { $name }: { $value } из { $next }
# /profile и страницы игрока
achievement-profile-head = <b>Достижения</b> ({ $count } из { $total }):
achievement-profile-none = Достижения: пока нет; они приходят с засчитанными играми.
achievement-profile-next = На подходе:
# личное сообщение в конце игры
achievement-told = { $count ->
    [1] 🏅 Новое достижение в игре №{ $game }:
   *[other] 🏅 Новые достижения в игре №{ $game }:
}
    { $lines }
# чат клуба — о редких достижениях (настройка клуба)
achievement-club = { $count ->
    [1] 🏅 Редкое достижение в игре №{ $game }:
   *[other] 🏅 Редкие достижения в игре №{ $game }:
}
    { $lines }
achievement-club-line = { $who }: { $line }
# личное сообщение, когда сезон закончен везде: игроку из десятки лучших сезона сети
achievement-season_top-told = 🌟 Сезон «{ $season }» закончен, и вы в десятке лучших сезона: { $rank }-е место в рейтинге сезона сети.
    { $title } — { $count ->
        [one] { $count } сезон в десятке
        [few] { $count } сезона в десятке
       *[many] { $count } сезонов в десятке
    }.
# /settings: whether the club chat hears of the rare ones (a new club's: no)
club-settings-achievements_on = 🏅 Чат клуба узнаёт о редких достижениях, полученных за его столами.
club-settings-achievements_off = 🏅 Чат клуба о достижениях не узнаёт.
club-settings-achievements_btn = 🏅 Редкие достижения в чате: вкл/выкл
# the player's page and Mini App
web-achievements-title = Достижения
web-achievements-none = Достижений пока нет: они приходят с засчитанными играми.
web-achievements-next = На подходе
