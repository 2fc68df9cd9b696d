# Достижения (standing/achievements.py): короткое название и одна строка «как получить» на
# каждое достижение каталога (achievement-<id>-name / -text); значок — из каталога. У
# достижения с уровнями уровень показан числом («Доктор на посту · 25»).

achievement-games-name = Завсегдатай
achievement-games-text = Сыгранные засчитанные игры.
achievement-wins-name = Победитель
achievement-wins-text = Победы вашей команды, если ведущий вас не удалил.
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
achievement-vote_hunter-text = Мирным жителем три дня одной игры голосовали против Мафии.
achievement-doctor_saves-name = Доктор на посту
achievement-doctor_saves-text = Доктором спасли игрока от ночного выстрела.
achievement-doctor_triple-name = Чудо-доктор
achievement-doctor_triple-text = Доктором трижды спасли игрока за одну игру.
achievement-sportsman_duel-name = Нокаут
achievement-sportsman_duel-text = Спортсменом забрали с собой игрока Мафии.
achievement-sportsman_hero-name = Чемпион
achievement-sportsman_hero-text = Спортсменом вызвали игрока Мафии — и остались в живых.
achievement-sportsman_tough-name = Железный
achievement-sportsman_tough-text = Спортсменом пережили ночной выстрел.
achievement-lucky_escape-name = В рубашке родился
achievement-lucky_escape-text = Счастливчиком пережили ночной выстрел.
achievement-lucky_twice-name = Дважды везунчик
achievement-lucky_twice-text = Счастливчиком пережили выстрелы в две ночи одной игры.
achievement-lawyer_save-name = Оправдан
achievement-lawyer_save-text = Адвокатом отменили казнь мирного жителя.
achievement-marilyn_mafia-name = Роковая женщина
achievement-marilyn_mafia-text = Играя за Мэрэлин, лишили игрока Мафии ночного действия.
achievement-marilyn_maniac-name = Укротительница
achievement-marilyn_maniac-text = Играя за Мэрэлин, лишили Маньяка ночного действия.
achievement-policeman_mafia-name = Напал на след
achievement-policeman_mafia-text = Полицейским нашли игрока Мафии.
achievement-policeman_three-name = Великий сыщик
achievement-policeman_three-text = Полицейским нашли троих из Мафии за одну игру.
achievement-judge_mafia-name = За решёткой
achievement-judge_mafia-text = Судьёй посадили игрока Мафии в тюрьму на ночь.
achievement-oligarch_bail-name = Под залог
achievement-oligarch_bail-text = Олигархом выкупили мирного жителя из тюрьмы.
achievement-maniac_mafia-name = Охотник на Мафию
achievement-maniac_mafia-text = Маньяком убили игрока Мафии.
achievement-killer_kills-name = Чистильщик
achievement-killer_kills-text = Киллером Мафии убили игрока своим выстрелом.
achievement-chief_wins-name = Крёстный отец
achievement-chief_wins-text = Победы Шефом Мафии.
achievement-policeman_hunted-name = Без Полицейского
achievement-policeman_hunted-text = Мафией убили Полицейского ночью.

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
# /settings: whether the club chat hears of the rare ones (a new club's: no)
club-settings-achievements_on = 🏅 Чат клуба узнаёт о редких достижениях, полученных за его столами.
club-settings-achievements_off = 🏅 Чат клуба о достижениях не узнаёт.
club-settings-achievements_btn = 🏅 Редкие достижения в чате: вкл/выкл
# the player's page and Mini App
web-achievements-title = Достижения
web-achievements-none = Достижений пока нет: они приходят с засчитанными играми.
web-achievements-next = На подходе
