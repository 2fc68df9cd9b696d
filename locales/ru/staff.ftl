# Роли сети (bot/services/permissions.py): кто что может, docs/bot.md «Роли».
perm-denied-host = Вести игру здесь могут только ведущие и администраторы клуба (и администраторы чата, если клуб это не отключил).
perm-denied-manage_club = Управлять клубом могут только его администраторы и администраторы сети.
perm-denied-hand_over_gift = Выдать подарок или отменить заявку на него могут только администраторы клуба, где его забирают, и администраторы сети.
perm-denied-void_game = Аннулировать игру могут только администраторы клуба и администраторы сети.
perm-denied-approve_clubs = Одобрять, отклонять и приостанавливать клубы могут только администраторы сети.
perm-denied-grant_network_admin = Назначать и снимать администраторов сети могут только её владельцы.
perm-denied-grant_club_admin = Назначать и снимать администраторов клуба могут только администраторы сети.
perm-denied-grant_host = Назначать ведущих клуба могут только его администраторы и администраторы сети.
perm-denied-network_settings = Менять настройки сети могут только её администраторы.
perm-denied-move_points = Это могут только администраторы сети: команда меняет баллы игроков.

# Жизнь клуба (bot/services/club_life.py): ожидает, одобрен, отклонён, приостановлен.
clubs-notice = 🆕 Новая группа просится в клубы: <b>{ $title }</b> (id <code>{ $chat }</code>); кто добавил бота: { $by }; участников: { $members }. Пока сеть её не одобрит, игры там товарищеские (без баллов).
clubs-button-approve = ✅ Одобрить
clubs-button-refuse = ❌ Отклонить
clubs-decided-approved = ✅ <b>{ $title }</b> (<code>{ $chat }</code>) одобрен, решение: { $by }.
clubs-decided-refused = ❌ <b>{ $title }</b> (<code>{ $chat }</code>) отклонён, решение: { $by }.
clubs-decided-suspended = ⏸ <b>{ $title }</b> (<code>{ $chat }</code>) приостановлен, решение: { $by }.
clubs-decided-pending = ⏳ <b>{ $title }</b> (<code>{ $chat }</code>) ждёт решения.
clubs-already = Ничего не изменилось — <b>{ $title }</b>: { $status } ({ $by }, { $at }).
clubs-status-pending = ждёт решения
clubs-status-approved = одобрен
clubs-status-refused = отклонён
clubs-status-suspended = приостановлен
clubs-chat-approved = ✅ Сеть одобрила этот клуб: игры здесь теперь приносят баллы. Часовой пояс: { $zone }.
clubs-chat-refused = Сеть отклонила этот клуб: игры здесь товарищеские, баллы не начисляются.
clubs-chat-suspended = ⏸ Сеть приостановила этот клуб: пока его снова не одобрят, игры здесь товарищеские, баллы не начисляются.
clubs-chat-pending = ⏳ Клуб ждёт одобрения сети: до тех пор игры здесь товарищеские.
clubs-approved_next = Одобрено. Теперь назовите клуб: отправьте <code>/club set { $chat } ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code> (часовой пояс — имя IANA, например Europe/Moscow, или - для пояса сети { $zone }; администратор — ник игрока или его Telegram id).
clubs-usage = Как писать: <code>/club approve CHAT_ID</code>, <code>/club refuse CHAT_ID</code>, <code>/club suspend CHAT_ID</code>, <code>/club set CHAT_ID ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code>. Список: /clubs
clubs-set_usage = Как писать: <code>/club set { $chat } ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code> (вместо пояса можно - — пояс сети; администратора можно не указывать).
clubs-too_long = Город и название клуба — не длиннее { $most } символов.
clubs-bad_zone = «{ $zone }» — не часовой пояс: укажите имя IANA, например Europe/Moscow или Asia/Vladivostok.
clubs-unknown = Клуба с id { $chat } нет: см. /clubs.
clubs-no_player = Игрока «{ $who }» с Telegram нет: укажите ник зарегистрированного игрока или его Telegram id.
clubs-set_done = <b>{ $name }</b>, { $city }; часовой пояс { $zone }; администратор клуба: { $admin }.
clubs-nobody = пока никого
clubs-admin_notice = Теперь вы администратор клуба <b>{ $title }</b>: его настройки, ведущие и вечера — ваши (/settings в чате клуба).
clubs-list-empty = Клубов пока нет.
clubs-list-head = <b>{ $status }</b>:
clubs-list-line = • { $title } — <code>{ $chat }</code>

commands-clubs = Клубы: ожидающие, одобренные, отклонённые
commands-club = Одобрить, отклонить, приостановить или назвать клуб
