# Club texts: moving a club in (/import, /link), honest nicknames, /settings, menus, limits.

## Limits on repeats
club-complain-limit = You have already filed { $limit ->
        [one] { $limit } complaint
       *[other] { $limit } complaints
    } today, the daily limit. Try again tomorrow.
spouse-already_proposed = You have already proposed to this player. Wait for their answer.

## Honest nicknames
nick-lookalike = The nickname <b>{ $nick }</b> looks like <b>{ $existing }</b>, which is taken. Choose one that looks different.
nick-reserved = The nickname <b>{ $nick }</b> belongs to an imported club record. Send <code>/nick { $nick }</code> to claim it; an admin confirms.
nick-stacked_marks = Too many accents on one letter. A letter may carry at most two different marks.
club-lookalikes-none = No nicknames look alike.
club-lookalikes-head = <b>Nicknames that look alike</b> (groups: { $count }):
club-lookalikes-group = • { $names }

## Moving a club in
club-import-usage = Send the club's table as a document — .xlsx, or CSV with commas, semicolons or tabs in UTF-8 or Windows-1251 — with the caption <code>/import</code> (a dry run: nothing is written) or <code>/import apply</code>; or reply to the file with <code>/import apply</code>. Another sheet than the first: <code>/import SHEET</code> or <code>/import apply SHEET</code>.
    The first row names the columns (case and spaces do not matter; other columns are ignored):
    • nickname, required: nickname, nick, player, ник, никнейм, игрок, псевдоним
    • points, required: points, score, balance, баллы, очки, балл, баланс
    • games played: games_played, games, игр, игры, сыграно игр, количество игр, число игр
    • last game (DD.MM.YYYY, DD.MM.YY, YYYY-MM-DD or a date cell; needed with points or games): last_game_date, last game, last game date, last played, последняя игра, дата последней игры
    • Telegram id: telegram_id, tg id, id telegram, телеграм id, id телеграм, id в телеграм, id в телеграме
    • Telegram username: username, telegram username, tg username, логин, юзернейм, логин в телеграм, логин в телеграме
    Numbers may have spaces between thousands (1 200). <code>/export</code> and <code>/export xlsx</code> write the same columns.
club-import-too_big = The file is too big (at most { $size } KB).
club-import-download_failed = The file could not be downloaded from Telegram. Nothing was imported; send it again.
club-import-file_too_big = The file is too big (at most { $value } KB). Nothing was imported.
club-import-file_not_spreadsheet = This is not a spreadsheet. Send the table as .xlsx or as CSV text. Nothing was imported.
club-import-file_unknown_encoding = The text's encoding is neither UTF-8 nor Windows-1251. In Excel: "Save as" → "CSV UTF-8"; in Google Sheets: "Download" → "CSV". Nothing was imported.
club-import-file_old_format = The .{ $value } format is not read. Save the table as .xlsx (Excel workbook) and send it again. Nothing was imported.
club-import-file_encrypted = The .xlsx is protected by a password. Remove the password (or save a copy without it) and send it again. Nothing was imported.
club-import-file_broken = The file is damaged and cannot be read. Save it again from the spreadsheet program and send it. Nothing was imported.
club-import-file_no_sheet = There is no sheet named “{ $value }”. Sheets in the file: { $sheets }. Nothing was imported.
club-import-file_formula = Cell { $value } holds a formula. Replace formulas with their values (copy, then "Paste special" → "Values only") and send the file again. Nothing was imported.
club-import-file_duplicate_column = Two columns mean the same: { $value }. Keep one of them. Nothing was imported.
club-import-source_xlsx = File: .xlsx, sheet “{ $sheet }”.
club-import-source_csv = File: CSV, { $encoding }, separated by { $delimiter }.
club-import-encoding_cp1251 = Windows-1251 encoding (what older Excel writes; read as such: check that the names look right)
club-import-encoding_utf8bom = UTF-8 with BOM
club-import-encoding_utf8 = UTF-8
club-import-delimiter_semicolon = semicolons
club-import-delimiter_tab = tabs
club-import-delimiter_comma = commas
club-import-columns = Columns: { $columns }.
club-import-ignored = Columns ignored (not known): { $columns }.
club-import-refused_file = The refused rows, with the reason in the last column. Fix them and send this file again with the caption <code>/import</code>.
club-import-reason_column = reason
admin-export_usage = Usage: <code>/export</code> (CSV) or <code>/export xlsx</code> (Excel workbook).
club-import-file_empty = The file is empty: the first line must name the columns.
club-import-file_missing_column = Required column missing: { $value }. Nothing was imported.
club-import-file_too_many_rows = Too many rows (at most { $value }). Nothing was imported.
club-import-dry = <b>Dry run, nothing written.</b> Would add { $added ->
        [one] { $added } player
       *[other] { $added } players
    } (linked to their Telegram accounts at once: { $linked }); unchanged: { $unchanged }; refused rows: { $refused }.
club-import-done = <b>Imported</b> { $added ->
        [one] { $added } player
       *[other] { $added } players
    } (linked to their Telegram accounts: { $linked }); unchanged: { $unchanged }; refused rows: { $refused }.
club-import-row = line { $line }: { $why }
club-import-more = … and { $count ->
        [one] { $count } more row
       *[other] { $count } more rows
    }
club-import-apply_hint = To write it, reply to the file with <code>/import apply</code>.
club-import-why_bad_number = not a whole number ≥ 0 ({ $value })
club-import-why_bad_date = bad date ({ $value }): DD.MM.YYYY, DD.MM.YY or YYYY-MM-DD, not in the future
club-import-why_missing_date = points or games without a last game date ({ $value })
club-import-why_bad_username = bad Telegram username ({ $value })
club-import-why_duplicate = duplicate of an earlier line: { $value }
club-import-why_lookalike = looks like the nickname { $value }
club-import-why_taken = the nickname is taken by a player ({ $value })
club-import-why_changed = { $value } was imported before with other data (a re-import changes nothing)
club-import-why_tg_other_nick = this Telegram account already has the nickname { $value }
club-import-why_nickname_too_short = nickname too short ({ $value })
club-import-why_nickname_too_long = nickname too long ({ $value })
club-import-why_nickname_bad_chars = nickname with characters that are not allowed ({ $value })
club-import-why_nickname_stacked_marks = nickname with stacked accents ({ $value })
club-import-why_nickname_no_letter_or_digit = nickname without a letter or digit ({ $value })
club-link-usage = Usage: <code>/link NICK</code> — confirms the first claim of an imported nickname; <code>/link NICK ID</code> links the record to the account with this id instead.
club-link-not_found = No imported record waits for the nickname <b>{ $nick }</b>.
club-link-no_claim = Nobody has claimed <b>{ $nick }</b> yet (the player sends <code>/nick { $nick }</code>), or name the account: <code>/link { $nick } ID</code>.
club-link-no_account = No registered account has the id { $id } (the player sends /start to the bot first).
club-link-done = <b>{ $nick }</b> is linked to { $name } (id { $id }); { $points ->
        [one] { $points } point
       *[other] { $points } points
    } credited.
club-link-notice = Your club record <b>{ $nick }</b> is yours now: { $points ->
        [one] { $points } point
       *[other] { $points } points
    }, games played: { $games }.
club-link-expired_notice = Your club record <b>{ $nick }</b> is yours now (games played: { $games }). Its points had expired: the last game was more than two months ago.
club-nick-claimed = <b>{ $nick }</b> is an imported club record. An admin has been asked to confirm that it is yours.
club-nick-claim_admin = { $name } (id { $id }) claims the imported nickname <b>{ $nick }</b>. Confirm with <code>/link { $nick }</code>.
club-nick-claimed_other = <b>{ $nick }</b> is an imported club record that another account has already claimed. If it is yours, tell an admin.
club-start-claimed = Your Telegram username matches the club record <b>{ $nick }</b>. An admin has been asked to confirm that it is yours.
club-start-claim_admin = { $name } (id { $id }) has the username @{ $username } that the imported record <b>{ $nick }</b> lists. Usernames change hands: check it is the same player, then confirm with <code>/link { $nick }</code>.

## Club settings
club-settings-denied = Only the club's admins and the network's admins can change the settings (and the chat's administrators while the club has no admin of its own).
club-settings-usage = <code>/settings</code> shows the settings; <code>/settings fine N</code> sets a foul's fine; reply to a member's message with <code>/settings host add</code> to make them a host.
club-settings-head = <b>Settings of { $title }</b>
    Language: { $language }
club-settings-timer = { $name }: { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }
club-settings-t_night = Night
club-settings-t_mafia_agree = Mafia agreement
club-settings-t_vote_turn = Vote turn
club-settings-t_last_word = Last word
club-settings-s_night = 🌙
club-settings-s_mafia_agree = 🤝
club-settings-s_vote_turn = 🗳
club-settings-s_last_word = 💬
club-settings-nudge = { $name } { $sign }{ $increment }
club-settings-fate_host = Shoot-outs: the host draws.
club-settings-fate_bot = Shoot-outs: the bot draws.
club-settings-fate_toggle = 🎲 Switch who draws shoot-outs
club-settings-hosts = 🎙 Hosts ({ $count })
club-settings-presets = 🃏 Compositions ({ $count })
club-settings-back = ← Back
club-settings-hosts_head = <b>Hosts</b> (listed: { $count })
club-settings-host_line = • { $name } (id { $id })
club-settings-hosts_hint = Add one: reply to their message with <code>/settings host add</code>. The chat's administrators host anyway, unless the club turned that off (<code>/staff chatadmins off</code>).
club-settings-remove = ✖ { $name }
club-settings-presets_head = <b>Saved compositions</b> (listed: { $count })
club-settings-preset_line = { $size }: { $roles }
club-settings-remove_preset = ✖ { $size }
club-settings-saved = Saved.
club-settings-timer_range = A timer stays between { $min ->
        [one] { $min } second
       *[other] { $min } seconds
    } and { $max ->
        [one] { $max } second
       *[other] { $max } seconds
    }.
club-settings-no_such_host = This host is no longer on the list.
club-settings-no_such_preset = This composition is no longer saved.
club-settings-host_added = { $name } is now a host of this club.

## Menus and the wrong chat
club-where-private = This command works in the private chat with the bot: { $link }
club-where-group = This command works in the club's group chat.
club-bad_seat = There is no seat { $seat }: the table has { $count ->
        [one] { $count } player
       *[other] { $count } players
    }.
commands-settings = Club settings (admins)
commands-redeem = Redeem points: /redeem NICK POINTS REASON
commands-adjust = Adjust points: /adjust NICK ±POINTS REASON
commands-block = Block an account
commands-unblock = Unblock an account
commands-export = Balances as CSV or .xlsx
commands-import = Import a club's players from .xlsx or CSV
commands-link = Confirm an imported nickname's claim
commands-lookalikes = Nicknames that look alike
commands-complaints = Complaints
commands-bot_status = The bot's status: processes, backlog
club-import-why_already_here = this Telegram account already plays here as { $value } (importing it again would count its points twice)
