import Foundation

/// Secrets that a screen's layout or a command gives away, with no label beside them: a column
/// of a table or a CSV export whose header names a password, a row `NAME value` of a page of
/// environment variables, a session cookie, the private lines of a PuTTY key file, what a
/// command that reads a password prints, and what an `expect` script sends after a password prompt.
extension SecretScan {
    /// How a table's cells are set apart: by commas (a CSV export), by bars (a Markdown or an ASCII
    /// table: `| Site | User | Password |`), by runs of spaces and tabs, or by runs of two or more
    /// (a table laid out in columns whose cells hold a space: `2nd floor`).
    enum CellSeparator { case commas, bars, spaces, wideSpaces }

    /// A line's cells, each without the spaces and the straight quotes around it (a bar before
    /// the first cell and after the last bounds the row: no cell).
    func cells(of line: Range<Int>, separatedBy separator: CellSeparator) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        let commas = separator == .commas || separator == .bars, mark: UInt8 = separator == .bars ? 0x7C : 0x2C
        func add(_ start: Int, _ end: Int) {
            var start = start, end = end
            while start < end, Self.isSpace(utf8[start]) || utf8[start] == 0x22 { start += 1 }
            while end > start, Self.isSpace(utf8[end - 1]) || utf8[end - 1] == 0x22 || utf8[end - 1] == 0x0D { end -= 1 }
            cells.append(start..<end)
        }
        var start = line.lowerBound, index = line.lowerBound
        while index < line.upperBound {
            let byte = utf8[index]
            if separator == .wideSpaces, Self.isSpace(byte) {
                // (One space is inside a cell; a tab or two spaces or more end it.)
                var runEnd = index
                while runEnd < line.upperBound, Self.isSpace(utf8[runEnd]) { runEnd += 1 }
                if runEnd - index >= 2 || byte == 0x09 || runEnd == line.upperBound {
                    if index > start { add(start, index) }
                    start = runEnd
                }
                index = runEnd
                continue
            } else if commas ? byte == mark : separator == .spaces && Self.isSpace(byte) {
                if commas || index > start { add(start, index) }
                start = index + 1
            }
            index += 1
        }
        if commas || line.upperBound > start { add(start, line.upperBound) }
        if separator == .bars {
            if cells.first?.isEmpty == true { cells.removeFirst() }
            if cells.last?.isEmpty == true { cells.removeLast() }
        }
        return cells
    }

    // MARK: - Columns

    /// What a header cell's column holds when it names a secret: `password`, `Passwort`, `pwd`,
    /// `login_password`, `PIN`, `secret`, `token` (``secretName(_:)``); nil for any other column.
    static func secretColumnKind(_ header: String) -> SecretKind? {
        let name = header.lowercased()
        guard name.count <= 32, name.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" || $0 == " " }) else { return nil }
        return secretName(name.replacingOccurrences(of: " ", with: "_")) ?? (name == "pin" ? .password : nil)
    }

    static func isSecretColumn(_ header: String) -> Bool { secretColumnKind(header) != nil }

    /// Whether a header cell names a column of keys and nothing more (`Key`, `Stream key`, `Keys`),
    /// not a public one's nor a database's (`Public key`, `Host key`, `Primary key`): its cells are
    /// secrets only when random (Owncast's stream keys, an admin page's `Name  Key  Created`); a
    /// name (`PROJ-123`, `user:42:cart`) is a key of another kind. Round 165.
    static func isKeyColumn(_ header: String) -> Bool {
        let words = header.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" || $0 == "-" })
        guard header.count <= 32, let last = words.last, last == "key" || last == "keys", words.count <= 3,
              header.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" || $0 == " " }) else { return false }
        return !words.contains(where: { ["public", "pub", "host", "ssh", "gpg", "pgp", "primary", "partition", "sort", "foreign", "license", "licence", "product", "registry"].contains($0) })
    }

    /// A cell of a table's header: a name of letters, maybe with `_`, `-` or spaces and digits after.
    static let headerCell = TextMatcher(#"^[A-Za-z][A-Za-z0-9 _\-]{0,31}$"#)

    /// A table whose header names a password column, as a password manager's CSV export
    /// (`name,url,username,password`), a Markdown table (`| Site | User | Password |`) or a table
    /// of logins shows it (`Service  Login  Password`):
    /// the cell of that column in each row below it with as many cells, to the first empty line
    /// (50 rows at most). A row's cell under a header is a value whatever it looks like
    /// (``isPasswordValue(_:quoted:)``: not `********` or `(none)`); in a table of words, OCR may
    /// split the last column's password, whose pieces then run to the line's end.
    func passwordColumns() -> [Secret] {
        guard mentions("pass", "pwd", "pin", "secret", "token", "kennwort", "key") else { return [] }
        // (Each line without its break.)
        let lines = lineRanges().map { $0.bytes.last.map { utf8[$0] == 0x0A } == true ? $0.bytes.dropLast() : $0.bytes }
        let headerWords = ["pass", "pwd", "pin", "secret", "token", "kennwort", "key"].map { Array($0.utf8) }
        var found: [Secret] = []
        var index = 0
        while index < lines.count {
            var header = lines[index]
            index += 1
            // (A byte search first: most lines name no secret.)
            guard header.count <= 200, headerWords.contains(where: { Self.holds(lowered[header], $0) }) else { continue }
            // A config file's legend of its columns, commented out (PPP's `chap-secrets`: `# client
            // server  secret  IP addresses`), heads the rows below it, its names in small letters too.
            var legendStart = header.lowerBound
            while legendStart < header.upperBound, Self.isSpace(utf8[legendStart]) { legendStart += 1 }
            let commented = legendStart + 1 < header.upperBound && utf8[legendStart] == 0x23 && Self.isSpace(utf8[legendStart + 1])
            if commented {
                legendStart += 1
                while legendStart < header.upperBound, Self.isSpace(utf8[legendStart]) { legendStart += 1 }
                header = legendStart..<header.upperBound
            }
            let separator: CellSeparator = utf8[header].filter({ $0 == 0x7C }).count >= 2 ? .bars
                : utf8[header].filter({ $0 == 0x2C }).count >= 2 ? .commas : .spaces
            let commas = separator == .commas, delimited = separator != .spaces
            let names = cells(of: header, separatedBy: separator)
            // A header is names, not a sentence that holds `password`: a CSV's identifiers, a
            // table's capitalized words (`Service  Login  Password`).
            // (A legend is three words or more, each of letters alone: `# ifdef calc_pass_height` is code.)
            guard let column = secretColumn(ofHeader: names, delimited: delimited, commented: commented) else { continue }
            // (A column of keys alone holds secrets only when its cell is random; nor does a comment's
            // words head one, `# Render a single row section with keys as header`.)
            let keysOnly = !Self.isSecretColumn(slice(names[column].lowerBound, names[column].upperBound))
            // (Nor a table of keys and values: its keys are names, `STRIPE_SECRET_KEY  sk_live_…`
            // under Vercel's `Key  Value  Environments`, a value's column has rules of its own.)
            if keysOnly && (commented || names.contains(where: { ["value", "values"].contains(slice($0.lowerBound, $0.upperBound).lowercased()) })) { continue }
            // A header laid out with runs of spaces between its names: a row's cells may hold one space,
            // as a name may (`User Name`).
            let wideNames = separator == .spaces ? cells(of: header, separatedBy: .wideSpaces) : []
            let wideColumn = wideNames.count >= 2 ? wideNames.firstIndex(where: { Self.isSecretColumn(slice($0.lowerBound, $0.upperBound)) })
                ?? (keysOnly ? wideNames.firstIndex(where: { Self.isKeyColumn(slice($0.lowerBound, $0.upperBound)) }) : nil) : nil
            var row = index
            let kind = keysOnly ? .apiKey : Self.secretColumnKind(slice(names[column].lowerBound, names[column].upperBound)) ?? .password
            while row < lines.count, row - index < 50, !lines[row].isEmpty {
                let line = lines[row]
                // (Under a legend, a comment is no row: `# another entry`.)
                if commented, utf8[line].first(where: { !Self.isSpace($0) }) == 0x23 { row += 1; continue }
                // (Another header starts a table of its own, read from it: each row is read under
                // one header, not under each of the fifty lines above it; round 165.)
                if !commented, line.count <= 200, headerWords.contains(where: { Self.holds(lowered[line], $0) }),
                   secretColumn(ofHeader: cells(of: line, separatedBy: separator), delimited: delimited, commented: false) != nil { break }
                var values = cells(of: line, separatedBy: separator)
                // (OCR's junk between cells, a glyph or two without a letter or digit, `—_` or `_`, is
                // no cell, when the row does not have the header's count with it: `Router admin —_
                // root gh!lv*P?KfrNq _ living room`; round 152.)
                if separator == .spaces, values.count != names.count,
                   case let kept = values.filter({ !isJunkCell($0) }), kept.count < values.count, kept.count >= names.count {
                    values = kept
                }
                let wideValues = wideColumn != nil ? cells(of: line, separatedBy: .wideSpaces) : []
                row += 1
                var range: Range<Int>
                if keysOnly {
                    // (Under a column of keys alone, only a random cell, 16+ characters, where the
                    // column's cell can be when OCR merged or split cells before it, with the pieces OCR
                    // split from it: `PROJ-1234 Fix the login…` under Jira's `Key` is no secret.)
                    guard column < values.count, case let candidates = column..<min(values.count, column + max(1, values.count - names.count + 1)),
                          let at = candidates.first(where: { index in
                        guard values[index].count >= 16 else { return false }
                        let cell = Self.withoutOCRJunk(squeezed(values[index].lowerBound, values[index].upperBound))
                        return cell.count >= 16 && Self.isRandomToken(cell)
                    }) else { continue }
                    // (The pieces on either side only when machine-made, within the cells before and
                    // after: a comment's words, `OBS on desk`, stay. Before it, scraps of a token's
                    // characters that read as no word are the key's too, six at most: `tf po39HFDhOVwP f …`.)
                    var first = at, last = at
                    while first > column, at - first < 6, case let cell = values[first - 1],
                          isMachineMade(cell.lowerBound, cell.upperBound)
                            || utf8[cell].allSatisfy(Self.isTokenLetterOrJunk) && !isSentenceWord((cell.lowerBound, cell.upperBound)) { first -= 1 }
                    while last + 1 < values.count - (names.count - 1 - column), isMachineMade(values[last + 1].lowerBound, values[last + 1].upperBound) { last += 1 }
                    range = values[first].lowerBound..<values[last].upperBound
                } else if values.count == names.count {
                    range = values[column]
                } else if let wideColumn, wideValues.count == wideNames.count {
                    range = wideValues[wideColumn]
                } else if let wideColumn,
                          let cell = wideValues.first(where: { Self.column(under: wideNames, of: header, at: $0.lowerBound - line.lowerBound) == wideColumn }) {
                    // A row with an empty cell (`influx auth create`'s Description): each cell under the
                    // header's name it starts beneath, as a terminal lays a table out in columns.
                    range = cell
                } else if separator == .spaces, wideNames.count < 2, values.count == names.count - 1, column < values.count - 1,
                          Self.looksLikeSecretOnItsOwn(squeezed(values[column].lowerBound, values[column].upperBound)) {
                    // OCR made one space of each run in the header too, so a name of two words
                    // (`IP addresses`) counts twice: a cell before the last, counted from the left, that
                    // looks like a secret on its own is the column's (`tomas * "3G&KBdorRh5" *`).
                    range = values[column]
                } else if separator == .spaces, values.count > names.count, values.count <= names.count + 3,
                          column == names.count - 1 || column > 0 && names.count >= 3 {
                    // OCR made one space of each run, or split the password: the cells before its
                    // column counted from the left, those after from the right, the rest is the
                    // password's (a note's extra word with it, rather than a password's piece left out).
                    // (Between columns on both sides only: a title's word first, `Password Health`, heads no table.)
                    var first = column, last = values.count - (names.count - column)
                    // (Three cells more than names: cells of two words on both sides, `Router admin
                    // deploy yMO5u4dGZ5# Is living room`. Then the words of a sentence and OCR's
                    // junk at the ends are other cells', when a piece between looks like a secret on
                    // its own; round 152.)
                    if values.count == names.count + 3 {
                        let cell = { (index: Int) in (values[index].lowerBound, values[index].upperBound) }
                        guard let secretLike = (first...last).first(where: { Self.looksLikeSecretOnItsOwn(squeezed(values[$0].lowerBound, values[$0].upperBound)) }) else { continue }
                        while first < secretLike, isSentenceWord(cell(first)) || isJunkCell(values[first]) { first += 1 }
                        while last > secretLike, isSentenceWord(cell(last)) || isJunkCell(values[last]) { last -= 1 }
                    }
                    range = values[first].lowerBound..<values[last].upperBound
                    // (A token's pieces before it, when a cell before it was empty: `influx auth create`'s Description.)
                    if kind == .apiKey {
                        range = tokenPieces(of: values, from: first, through: last, column: column, columnsAfter: nil)
                    }
                } else if separator == .spaces, kind == .apiKey,
                          let at = values.indices.first(where: { index in
                              let cell = Self.withoutOCRJunk(squeezed(values[index].lowerBound, values[index].upperBound))
                              return Self.isClearlyRandom(cell) || (index > 0 || column == 0) && cell.count >= 20 && Self.isRandomToken(cell)
                          }) {
                    // Under a token's or key's column, a cell of 24+ random characters (20+ of a token's
                    // alphabet after the row's first cell) is that column's
                    // wherever OCR's spacing (an empty cell, a name of two words) put it, with the
                    // pieces OCR split from it on both sides (``tokenPieces(of:from:through:column:columnsAfter:)``).
                    range = tokenPieces(of: values, from: at, through: at, column: column, columnsAfter: names.count - 1 - column)
                } else { continue }
                let value = squeezed(range.lowerBound, range.upperBound)
                // (A token shown cut, `npm_3s…` in `npm token list`, is none.)
                guard value.count >= 4, Self.isPasswordValue(value, quoted: commas), kind != .apiKey || !value.contains("..") && !value.contains("…"),
                      commas || Self.looksLikeSecretOnItsOwn(value) || value.contains(where: \.isNumber),
                      !keysOnly || value.count >= 16 && Self.isRandomToken(Self.withoutOCRJunk(value)) else { continue }
                found.append(secret(kind, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    /// The column of a table's header that names a secret (``isSecretColumn(_:)``), or else keys
    /// alone (``isKeyColumn(_:)``), when the line is a header: 2 to 12 names, each a header's cell
    /// (``headerCell``), capitalized unless cells are delimited or the header is a commented legend
    /// (three words or more, each of letters alone: `# ifdef calc_pass_height` is code). Nil otherwise.
    func secretColumn(ofHeader names: [Range<Int>], delimited: Bool, commented: Bool) -> Int? {
        guard names.count >= 2, names.count <= 12,
              !commented || names.count >= 3 && names.allSatisfy({ utf8[$0].allSatisfy(Self.isLetter) }),
              names.allSatisfy({ Self.headerCell.firstMatch(in: slice($0.lowerBound, $0.upperBound)) != nil && (delimited || commented || utf8[$0.lowerBound] < 0x5B) }) else { return nil }
        return names.firstIndex(where: { Self.isSecretColumn(slice($0.lowerBound, $0.upperBound)) })
            ?? names.firstIndex(where: { Self.isKeyColumn(slice($0.lowerBound, $0.upperBound)) })
    }

    /// Whether a row's cell is OCR's junk between cells: a glyph or two without a letter or digit (`—_`, `_`).
    func isJunkCell(_ cell: Range<Int>) -> Bool {
        cell.count <= 2 && !utf8[cell].contains(where: Self.isAlphanumeric)
    }

    /// A token's cell in a row OCR read with one space between all cells, and the pieces it split
    /// the token into (`influx auth create`'s 88-character token: `W1z5i302sEpF 3a+5y7Zr… geWcE Ixr…/g==`):
    /// the pieces of a token's alphabet on either side (before it, no word of a sentence: a
    /// description's), never the row's first cell when the token's column is not the first (its name or id); to the right (when
    /// `columnsAfter` is given), none after a piece that ends with base64's padding `=`, a bracket,
    /// or the cells the header's later columns need.
    func tokenPieces(of values: [Range<Int>], from first: Int, through last: Int, column: Int, columnsAfter: Int?) -> Range<Int> {
        func isTokenPiece(_ cell: Range<Int>) -> Bool {
            utf8[cell].allSatisfy { Self.isTokenLetterOrJunk($0) || [0x2B, 0x2F, 0x3D, 0x2D, 0x5F].contains($0) }
                && ![0x5B, 0x28, 0x7B].contains(utf8[cell.lowerBound])
        }
        var first = first, last = last
        while first > (column > 0 ? 1 : 0), isTokenPiece(values[first - 1]), !isSentenceWord((values[first - 1].lowerBound, values[first - 1].upperBound)) { first -= 1 }
        if let columnsAfter {
            while last + 1 < values.count, utf8[values[last].upperBound - 1] != 0x3D, values.count - (last + 1) > columnsAfter,
                  isTokenPiece(values[last + 1]) { last += 1 }
        }
        return values[first].lowerBound..<values[last].upperBound
    }

    /// The header's column over a cell that starts `offset` bytes into its row: the last name that
    /// starts at or before it (two bytes of slack), as the columns of a terminal's table line up.
    static func column(under names: [Range<Int>], of header: Range<Int>, at offset: Int) -> Int? {
        names.lastIndex { $0.lowerBound - header.lowerBound <= offset + 2 }
    }

    /// A row of a page of environment variables or settings: a name in capitals that names a
    /// secret (`SMTP_PASS`, `STRIPE_SECRET`), then only spaces and its value, which must be
    /// machine-made (`API_KEY  Required` is a form). OCR may read a glyph or two of junk between
    /// them (`DATABASE_PASSWORD —_ …`).
    /// (OCR may put a space beside a `_` of the name, read a `_` as a space, or a stop or a `_` after it.)
    static let namedRow = TextMatcher(#"(?m)^[ \t]*([A-Z][A-Z0-9]*(?:(?: ?_ ?| )[A-Z0-9]+)+)_?[.,]?[ \t]+(?:[^\sA-Za-z0-9=:]{1,2}[ \t]+)?(?=[^\s=:])"#)

    static let capitalsThenEquals = TextMatcher(#"^_?[A-Z][A-Z0-9_]*="#)

    func namedRows() -> [Secret] {
        guard mentions("pass", "pwd", "secret", "token", "key", "psk") else { return [] }
        return Self.namedRow.matches(in: searchable).compactMap { match in
            guard let name = match[1].map(Self.joinedName),
                  let kind = Self.secretName(name.lowercased()),
                  let (start, end, _) = separateValue(after: match.end) else { return nil }
            var rest = end
            while rest < utf8.count, Self.isSpace(utf8[rest]) { rest += 1 }
            let value = squeezed(start, end)
            // A last word in capitals then `=` is the name's (OCR read its `_` as a space:
            // `…_JWT SECRET FILE=/run/secrets/jwt`, `_` and a space: `SESSION SECRET _FILE=…`): an
            // assignment, read by ``labelledValues()``.
            if Self.capitalsThenEquals.firstMatch(in: value) != nil { return nil }
            // Last on its line, or a column of a table with more after it (a dashboard's row:
            // `DATABASE_PASSWORD  …  Production, Preview`) when it has 10+ characters.
            guard rest == utf8.count || Self.isLineBreak(utf8[rest]) || value.count >= 10, value.count >= 8,
                  Self.isPasswordValue(value, quoted: false),
                  Self.isRandomToken(Self.withoutOCRJunk(value)) || Self.looksLikeSecretOnItsOwn(value) else { return nil }
            return secret(kind, nil, start, end)
        }
    }

    /// A row of a table a terminal draws with bars (`npm token create`, the AWS CLI's `--output
    /// table`): `| token | npm_… |`, `│ SecretAccessKey │ … │`: group 1 the name, group 2 the
    /// value, alone in its cell (round 150). The name, one word, must name a secret
    /// (``secretName(_:)``; `| Password last set | … |` is none) and the value be random
    /// (`| readonly | false |` is none). The row starts with its bar (C's `FLAG_A | FLAG_B,` is
    /// no row). A glyph OCR read for the bar before the value stays glued to it (`| token |
    /// nNpm_…`), so the whole piece is taken.
    static let barredRow = TextMatcher(#"(?m)^[ \t]*[|│┃][ \t]*([A-Za-z][A-Za-z0-9_.\-]{1,40})[ \t]*[|│┃][ \t]*([^\s|│┃]{8,256})[ \t]*(?:[|│┃][ \t]*)?$"#)

    func barredRows() -> [Secret] {
        guard mentions("|", "│", "┃"), mentions("pass", "pwd", "secret", "token", "key", "psk", "auth") else { return [] }
        return Self.barredRow.matches(in: searchable).compactMap { match in
            guard let name = match[1], let kind = Self.secretName(name), let range = match.range(2) else { return nil }
            let value = slice(range.lowerBound, range.upperBound)
            guard Self.isPasswordValue(value, quoted: false),
                  Self.isRandomToken(Self.withoutOCRJunk(value)) || Self.looksLikeSecretOnItsOwn(value) else { return nil }
            return secret(kind, nil, range.lowerBound, range.upperBound)
        }
    }

    // MARK: - Cookies

    /// A `Cookie:` or `Set-Cookie:` header (a browser's developer tools show them).
    static let cookieHeader = TextMatcher(#"(?im)(?<![A-Za-z\-])(?:set-)?cookie[ \t]*:[ \t]*"#)
    /// curl's option that sends cookies (`-b`, `--cookie`), then a cookie's `name=`.
    /// (OCR may read the quote curly: `-b ‘PHPSESSID=…'`; round 152.)
    static let curlCookieFlag = TextMatcher(#"(?<=[ \t])(?:-b|--cookie)(?:[ \t]+|=)["'‘’“”]?(?=[A-Za-z0-9_.\-]{1,64}[ \t]?=)"#)
    /// What a session cookie's name holds (`sessionid`, `connect.sid`, `PHPSESSID`, `auth_token`).
    static let sessionCookieWords = ["sess", "sid", "auth", "token", "jwt", "remember", "login", "secret"]

    /// A host's name as a cookie table shows its domain: small letters, digits and inner dashes,
    /// dotted, ending in a top-level name of letters.
    static let lowercaseHostName = TextMatcher(#"^(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}$"#)

    /// A row of a browser's cookie table (its developer tools, an extension): the cookie's name,
    /// then its value, then its domain and path.
    /// (OCR may read a `_` of the name as a space: `_gh sess`; and the gap between the columns as
    /// a dash: `_gh_sess — 2d4Jxp…`; and split the value a few characters in: `_gh_sess 4EjMLEf83
    /// rnxtw%wZj …`, round 146, or two letters in, `laravel_session Ki HBVv8bq0…`, round 150: a
    /// piece of 14+ letters and digits must then follow. Its pieces are taken together and checked
    /// as one token.)
    static let cookieRow = TextMatcher(#"(?m)^[ \t]*([A-Za-z0-9_.\-]{2,64}(?: [a-z]{3,8})?)[ \t]+(?:[—–\-|][ \t]+)?(?=[^\s]{6}|[A-Za-z0-9]{1,5} [A-Za-z0-9]{14})"#)

    /// The value of a session cookie in a cookie header: whoever has it is signed in. Each
    /// `name=value` to its `;`; a value of 16+ characters (a flag such as `theme=dark` is none).
    /// In a table of cookies (a text that says `cookie`), a row's value after a session cookie's
    /// name, when it is a token (letters and digits, no address).
    func sessionCookies() -> [Secret] {
        let namesCookies = mentions("cookie")
        guard namesCookies || mentions("-b") else { return [] }
        var found: [Secret] = []
        for row in namesCookies ? Self.cookieRow.matches(in: searchable) : [] {
            guard let name = row[1]?.lowercased(), Self.sessionCookieWords.contains(where: { name.contains($0) }),
                  let value = piece(from: row.end, maximumSpaces: 0) else { continue }
            // (Its pieces taken across the spaces OCR put in it: `6XoCSsracG26qws JDIuQyMC…`.)
            let end = valueEnd(from: value.end, maximumLength: 512)
            let token = squeezed(value.start, end)
            // (A host's name in the value's column is none: `auth_provider via google-oauth2.acme.io`.)
            guard token.count >= 16, !token.contains("://"), token.contains(where: \.isNumber), token.contains(where: \.isLetter),
                  Self.entropy(token) >= 3.5, Self.lowercaseHostName.firstMatch(in: token) == nil else { continue }
            // (To the row's domain column where it is near: the pieces taken may have run into it.)
            found.append(secret(.apiKey, "session cookie", value.start, valueColumnEnd(from: value.start) ?? valueColumnEnd(from: end) ?? end))
        }
        var headers: [(start: Int, end: Int)] = []
        if namesCookies {
            for match in Self.cookieHeader.matches(in: searchable) {
                var lineEnd = match.end
                while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
                headers.append((match.end, lineEnd))
            }
        }
        // curl's `-b 'name=value; …'` / `--cookie "…"`: the cookies to its closing quote, or to the
        // next space unquoted (without `=` the argument is a cookie jar's file).
        if mentions("-b", "--cookie"), mentions("curl") {
            for match in Self.curlCookieFlag.matches(in: searchable) {
                // (Quoted, to the next quote of any glyph: OCR may read one of the pair curly.)
                let quoted = quoteLength(endingAt: match.end) > 0
                var stop = match.end
                while stop < utf8.count, stop - match.end < 4096, !Self.isLineBreak(utf8[stop]),
                      quoted ? quoteLength(at: stop) == 0 : !Self.isSpace(utf8[stop]) { stop += 1 }
                headers.append((match.end, stop))
            }
        }
        for (headerStart, lineEnd) in headers {
            var start = headerStart
            while start < lineEnd {
                var stop = start
                while stop < lineEnd, utf8[stop] != 0x3B { stop += 1 }
                defer { start = stop + 1 }
                guard let equals = utf8[start..<stop].firstIndex(of: 0x3D) else { continue }
                let name = slice(start, equals).trimmingCharacters(in: .whitespaces).lowercased()
                guard Self.sessionCookieWords.contains(where: { name.contains($0) }) else { continue }
                var valueStart = equals + 1, valueEnd = stop
                while valueStart < valueEnd, Self.isSpace(utf8[valueStart]) { valueStart += 1 }
                while valueEnd > valueStart, Self.isSpace(utf8[valueEnd - 1]) { valueEnd -= 1 }
                guard valueEnd - valueStart >= 16 else { continue }
                found.append(secret(.apiKey, "session cookie", valueStart, valueEnd))
            }
        }
        return found
    }

    /// A host name, a column of a cookie table: `app.acme.io`, `.acme.io`.
    static let hostPiece = TextMatcher(#"^\.?[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})+$"#)

    /// Whether a host and then a path start at `index` on its line (`app.acme.io /`): a cookie
    /// table's domain and path columns.
    func startsDomainAndPathColumns(at index: Int) -> Bool {
        guard let host = piece(from: index, maximumSpaces: .max), Self.hostPiece.firstMatch(in: slice(host.start, host.end)) != nil,
              let path = piece(from: host.end, maximumSpaces: .max) else { return false }
        return utf8[path.start] == 0x2F
    }

    /// Where a cookie table row's value column ends when OCR split more from the value than its
    /// own rule took: before the row's domain and path (a host, then a piece that starts with `/`),
    /// six pieces on at most (`…Mio . Lopxn LduXZ… JCQst pythn… app.acme.io / Session`: a
    /// signature whose digits OCR read as letters; round 137). Nil when no such columns follow.
    func valueColumnEnd(from index: Int) -> Int? {
        var last = index, pieces = 0
        while pieces < 7, let next = piece(from: last, maximumSpaces: .max) {
            if pieces > 0, startsDomainAndPathColumns(at: last) { return last }
            last = next.end
            pieces += 1
        }
        return nil
    }

    // MARK: - Key files

    /// PuTTY's key file says how many lines its private key takes: `Private-Lines: 14`.
    static let puttyPrivateLines = TextMatcher(#"(?im)^[ \t]*Private ?- ?Lines[ \t]*:[ \t]*(\d{1,2})[ \t]*$"#)

    /// The private lines of a PuTTY key file (`.ppk`), as many as it says, to the first empty line.
    func puttyPrivateKeys() -> [Secret] {
        guard mentions("private") else { return [] }
        return Self.puttyPrivateLines.matches(in: searchable).compactMap { match in
            guard let count = match[1].flatMap({ Int($0) }), count > 0 else { return nil }
            var start = match.end
            while start < utf8.count, Self.isLineBreak(utf8[start]) || Self.isSpace(utf8[start]) { start += 1 }
            var end = start, lines = 0
            while end < utf8.count, lines < count {
                var lineEnd = end
                while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
                guard lineEnd > end, !slice(end, lineEnd).contains(": ") else { break }
                end = lineEnd
                lines += 1
                if end < utf8.count, lines < count { end += 1 }
            }
            while end > start, Self.isLineBreak(utf8[end - 1]) || Self.isSpace(utf8[end - 1]) { end -= 1 }
            guard end > start else { return nil }
            return secret(.apiKey, "private key", start, end)
        }
    }

    /// The comment line of a minisign or signify key file that holds a secret key
    /// (`untrusted comment: minisign encrypted secret key`, `… signify secret key`).
    static let secretKeyComment = TextMatcher(#"(?im)^[ \t]*untrusted[ \t]+comment[ \t]*:[^\n]{0,120}?secret[ \t]+key[^\n]{0,60}$"#)

    /// The key under such a comment: the lines to the first empty one or one with a label (two at
    /// most), whatever OCR made of them (spaces, a `0` read as `@`), when they are mostly base64.
    func signifySecretKeys() -> [Secret] {
        guard mentions("untrusted") else { return [] }
        return Self.secretKeyComment.matches(in: searchable).compactMap { match in
            var start = match.end
            while start < utf8.count, Self.isLineBreak(utf8[start]) || Self.isSpace(utf8[start]) { start += 1 }
            var end = start, lines = 0
            while end < utf8.count, lines < 2 {
                var lineEnd = end
                while lineEnd < utf8.count, lineEnd - end < 512, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
                let line = utf8[end..<lineEnd]
                let base64 = line.filter { Self.isAlphanumeric($0) || $0 == 0x2B || $0 == 0x2F || $0 == 0x3D }.count
                guard line.count >= 16, !slice(end, lineEnd).contains(": "), base64 * 10 >= line.count * 9 else { break }
                end = lineEnd
                lines += 1
                guard end < utf8.count else { break }
                end += 1
            }
            while end > start, Self.isLineBreak(utf8[end - 1]) || Self.isSpace(utf8[end - 1]) { end -= 1 }
            guard lines > 0, end > start else { return nil }
            return secret(.apiKey, "private key", start, end)
        }
    }

    // MARK: - What commands print and send

    /// A shell prompt, then a command that reads a password or a secret: it names one
    /// (`kubectl get secret … {.data.password} | base64 -d`, `security find-generic-password -w`,
    /// `op read op://…/password`, `nmcli -s -g 802-11-wireless-security.psk …`, `wg show wg0
    /// private-key`) or is a password store's (`pass show`, `gopass show`), or hides one reversibly
    /// (`rclone obscure …` prints what rclone's config keeps, which `rclone reveal` turns back), or
    /// makes a key or token (``keyMaking``). (The command's cue is found once, atomically: a line
    /// without a next one, `$ … secret … secret …` for 32 KB, would otherwise be read again after
    /// each cue, its length squared.)
    /// An account's line in `/etc/passwd` or `/etc/group`: name, `x` (or `*`, `!`, nothing), ids.
    /// (OCR may put a space beside a colon, and read the `x` as two letters: `ops :x:1001:…`, `ops:xX:1001:…`.)
    /// (And its ids' `0` read `@` or `O`: `ana:x:10@0:1000:…`; round 152.)
    static let accountEntry = TextMatcher(#"^[A-Za-z0-9_.\-]{1,32}[ \t]?:[ \t]?[xX*!]{0,2}[ \t]?:[ \t]?[\d@O]{1,10}[ \t]?:(?:[ \t]?[\d@O]{1,10}[ \t]?:)?"#)
    static let commandReadingASecret = TextMatcher(
        #"(?im)^[ \t]*(?:[$#%>❯]|PS [^>\n]{1,80}>)[ \t]+(?>[^\n]*?(?:"# + secretCueWords + #")|(?:sudo[ \t]+)?(?:pass|gopass)[ \t]+(?:show[ \t]+)?[A-Za-z0-9_]|[^\n]*?\bop[ \t]+read\b|[^\n]*?\brclone[ \t]+obscure\b|[^\n]*?"# + keyMaking + #"|[^\n]*?"# + passwordGenerator + #")[^\n]*\n"#)
    /// A command that prints a secret and nothing else: 1Password's `op read` of a field that
    /// names one (`op://vault/item/password`), `pass show` and `gopass show`, a password generator.
    static let secretPrinter = TextMatcher(
        #"(?i)\bop[ \t]+read[ \t]+(?:["'“”]op://[^"'“”\n]{1,200}/([A-Za-z0-9_.\-]{2,64})["'“”]|op://\S{1,200}/([A-Za-z0-9_.\-]{2,64})(?=\s|$))|(?:^|[ \t$#>])(?:go)?pass[ \t]+show[ \t]+[A-Za-z0-9_]|"# + passwordGenerator)
    static func printsASecretItself(_ command: String) -> Bool {
        guard let match = secretPrinter.firstMatch(in: command) else { return false }
        guard let field = match[1] ?? match[2] else { return true }
        // (``secretName(_:)`` takes `password`, `secret`, `token` alone; `key` alone names too much there.)
        return secretName(field) != nil || field.lowercased() == "key"
    }
    /// A password generator's name: what it prints is a new password (`pwgen -s -1 16`, `apg`,
    /// `makepasswd`, `xkcdpass`, `diceware`; round 153).
    static let passwordGenerator = #"(?<![A-Za-z0-9_\-/.])(?:pwgen|apg|makepasswd|xkcdpass|diceware)(?![A-Za-z0-9_\-])"#
    /// A setting that names the file a secret is kept in, and its value: `PASSWORD__FILE=/run/…`,
    /// `--password-file /run/…` (OCR may read a `_` as a space).
    static let secretFileSetting = TextMatcher(
        #"(?i)[A-Za-z0-9_]*(?:password|passwd|passphrase|secret|token)[A-Za-z0-9_]*?(?:_{1,2}|[ \t])(?:file|path)[ \t]*=[ \t]*\S*|--[a-z\-]*(?:password|passwd|passphrase|secret|token)[a-z\-]*-(?:file|path)(?:[ \t]*=[ \t]*|[ \t]+)\S*"#)
    static let secretCue = TextMatcher("(?i)" + secretCueWords)
    /// The words by which a command names a secret (``commandReadingASecret``, ``secretCue``).
    /// (A file named for an API key, `cat /opt/etherpad-lite/APIKEY.txt`, `cat apikey`: the name a
    /// word of the command's own, not a URL's parameter `?apikey=` nor a header's `X-Api-Key:`; round 165.)
    static let secretCueWords = #"password|passwd|passphrase|secret|token|\.key\b|\.psk\b|private-key\b|(?<![^/\s])api[-_]?key(?:\.[ \t]?[A-Za-z]{1,4})?(?![^\s|;&])"#

    /// Whether a command names a secret only in settings that say which file holds it (``secretFileSetting``).
    static func namesOnlySecretFiles(_ command: String) -> Bool {
        let settings = secretFileSetting.matches(in: command)
        guard !settings.isEmpty else { return false }
        var bytes = Array(command.utf8)
        for setting in settings { bytes.replaceSubrange(setting.start..<setting.end, with: repeatElement(0x20, count: setting.end - setting.start)) }
        return secretCue.firstMatch(in: String(decoding: bytes, as: UTF8.self)) == nil
    }

    /// Commands that print hashes: git's, checksum tools'.
    static let hashPrintingCommand = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:git|sha\d*sum|md5sum|b2sum|shasum|cksum)(?![A-Za-z0-9_\-])"#)

    /// A command that makes a key or a token and prints it (`headscale preauthkeys create`,
    /// `headscale apikeys create`, `… api-key generate`): what it prints is that key, hexadecimal or not.
    static let keyMaking = #"(?:keys?|tokens?)[ \t]+(?:create|generate|new|issue)\b"#
    static let keyMakingCommand = TextMatcher("(?i)" + keyMaking)

    /// The line a command that reads a password or a secret printed: one value and nothing else,
    /// indented no deeper than the prompt (a deeper line goes on with the command: `… \`); letters
    /// and digits will do (`xse6-RWNRJ`), not a hash (`git log -1 --format=%h -- password.c`).
    /// A path, a file's name or a number is what other commands print (`which pass`).
    /// Whether the line from `start` to `end` is JSON's object or list: `{` or `[`, then a quote,
    /// a bracket or a brace, and it ends with `}` or `]`.
    func isJSONLine(_ start: Int, _ end: Int) -> Bool {
        var last = end
        while last > start, Self.isSpace(utf8[last - 1]) { last -= 1 }
        guard last - start >= 2, utf8[start] == 0x7B || utf8[start] == 0x5B, utf8[last - 1] == 0x7D || utf8[last - 1] == 0x5D else { return false }
        var next = start + 1
        while next < last, Self.isSpace(utf8[next]) { next += 1 }
        return "\"{[]}".utf8.contains(utf8[next])
    }

    func commandOutputs() -> [Secret] {
        guard mentions("pass", "secret", "token", "op read", ".key", ".psk", "private-key", "obscure", "apikey", "api_key", "api-key", "key create", "keys create", "key generate", "keys generate", "key new", "key issue",
                       "pwgen", "apg", "xkcdpass", "diceware") else { return [] }
        return Self.commandReadingASecret.matches(in: searchable).compactMap { match in
            // (A command that reads a password's hash prints the hash: `grep HashedControlPassword torrc`.)
            guard !Self.holds(lowered[match.start..<match.end], Array("hash".utf8)) || !Self.saysHash(match.text) else { return nil }
            // (Nor does one that hashes a password, `openssl passwd -6 -stdin < /run/secrets/…`, `mkpasswd`,
            // whose hash OCR may read past ``passwordHash``'s shape: `SE$SRt tNMg2 …` for `$6$RttNMg2…`.)
            guard Self.passwordHashingCommand.firstMatch(in: match.text) == nil else { return nil }
            // (Nor one that only says which file holds it, `-e GF_SECURITY_ADMIN_PASSWORD__FILE=/run/secrets/…`,
            // `--password-file /run/…`: `docker run -d` prints its container's id.)
            guard !Self.namesOnlySecretFiles(match.text) else { return nil }
            var promptIndent = match.start
            while promptIndent < utf8.count, Self.isSpace(utf8[promptIndent]) { promptIndent += 1 }
            var start = match.end
            while start < utf8.count, Self.isSpace(utf8[start]) { start += 1 }
            guard start - match.end <= promptIndent - match.start else { return nil }
            // (Not the next prompt, nor a path: `/usr/bin/pass`, `~/.password-store`.)
            guard start < utf8.count, !Self.isLineBreak(utf8[start]),
                  !isPrompt(at: start),
                  utf8[start] != 0x2F, !("~.".utf8.contains(utf8[start]) && start + 1 < utf8.count && utf8[start + 1] == 0x2F) else { return nil }
            // (Nor a long option: the command goes on on that line, `--cookie-secret=…` / `--cookie-expire=2h`.)
            if let first = piece(from: start, maximumSpaces: 0), isLongOption(first), isOptionOrAddress(first) { return nil }
            // (Nor an address: `az keyvault secret list --query '[].id'` prints the secrets' ids.)
            if let scheme = utf8[start..<min(utf8.count, start + 24)].firstIndex(of: 0x3A), scheme > start,
               utf8[start..<scheme].allSatisfy(Self.isLetter), scheme + 2 < utf8.count, utf8[scheme + 1] == 0x2F, utf8[scheme + 2] == 0x2F { return nil }
            // What a password manager reads out or a generator makes is the secret, whatever its shape
            // (`op read "op://…/password"` → `HZORBTZGOd`; round 153): the line, three pieces at most.
            // (OCR may split it once or twice, `jcZtwiNj JNA9vVI8z`: then the pieces together look like a
            // secret on their own, as `HTTPs 443` and `URLs 2 saved` do not.)
            if Self.printsASecretItself(match.text), let pieces = piecesToLineEnd(from: start, atMost: 3, maximumSpaces: 1), let first = pieces.first,
               let last = pieces.last, case let value = squeezed(first.start, last.end), value.count >= 6, Self.isPasswordValue(value, quoted: false),
               pieces.count == 1 || !pieces.contains(where: { $0.end - $0.start >= 4 && isSentenceWord($0) }) && Self.looksLikeSecretOnItsOwn(value) {
                return secret(.password, nil, first.start, last.end)
            }
            // A key a command that makes keys printed, whatever its first piece looks like: OCR may
            // read it as capitals, `ADSRYEHF cCuQoF i081 8MZR…` after `vmq-admin api-key create`; round 165.
            // (Its pieces a token's characters alone, none an option: `kubeadm join 10.0.0.10:6443 --token …`
            // is a command to run.)
            if Self.keyMakingCommand.firstMatch(in: match.text) != nil,
               let pieces = piecesToLineEnd(from: start, atMost: 8, maximumSpaces: 1),
               pieces.allSatisfy({ piece in utf8[piece.start] != 0x2D && utf8[piece.start..<piece.end].allSatisfy { Self.isAlphanumeric($0) || "+/=_-".utf8.contains($0) } }),
               let token = printedToken(from: start, after: match) { return token }
            let separate = separateValue(after: start, dashStartsIt: true)
            let splitAfterLetters = separate == nil ? firstPieceOfValueSplitAfterLetters(start) : nil
            guard separate?.start == start
                    || separate == nil && (startsWithJunkBeforeToken(start) || splitAfterLetters != nil || startsWithOddlyCasedLetters(start)) else { return nil }
            // (A password file's line holds a hash: `cat .htpasswd` prints `lena:$apr1$…`.)
            var lineEnd = start
            while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]), lineEnd - start < 512 { lineEnd += 1 }
            if Self.passwordHash.firstMatch(in: slice(start, lineEnd)) != nil { return nil }
            // (Nor does `/etc/passwd`'s: `root:x:0:0:root:/root:/bin/bash`, the password elsewhere.)
            if Self.accountEntry.firstMatch(in: slice(start, lineEnd)) != nil { return nil }
            // (Nor an API's JSON reply, an object or a list: `curl … -u secret_admin_…:` prints
            // `{"features":[],…}`; round 159.)
            if isJSONLine(start, lineEnd) { return nil }
            // (Nor a log's line, a time of day starting a piece of its own, words beside it: a server's
            // first line of output, `I1207 08:12:44.102 run.go:742] x.Config: {…}` after `dgraph alpha
            // --security "token=…"`, wget's `--2026-11-20 09:14:02--  ftp://…`; round 158.)
            if utf8[start..<lineEnd].contains(where: Self.isSpace),
               Self.timeOfDay.matches(in: slice(start, lineEnd)).contains(where: { $0.start == 0 || Self.isSpace(utf8[start + $0.start - 1]) }) { return nil }
            // (Nor a heading ruled with `=` or `-`: `vault kv get` prints `======= Metadata =======`
            // first, OCR may read a rule's glyph or two as letters, `=ss==== Metadata`; round 151.)
            if Self.holds(utf8[start..<lineEnd], Array("===".utf8)) || Self.holds(utf8[start..<lineEnd], Array("---".utf8)) { return nil }
            // A search prints the lines it found, each after its file's name (`grep -rn password
            // src/` → `src/auth.py:42: password = …`): code that names a password, not one.
            if Self.searchTool.firstMatch(in: match.text) != nil, Self.searchHit.firstMatch(in: slice(start, lineEnd)) != nil { return nil }
            // (Nor the rest of a long command the terminal wrapped inside a word, `… --nam` / `e runner-01`,
            // `… --name run` / `ner-01`: a first piece of 8 bytes at most that starts with a small letter,
            // after a command line as wide as a terminal, 80 bytes or more, that ends with a letter;
            // a piece of a command's word: letters, digits and `-_./=:,`, not a password's `!` or `*`
            // OCR split off, `usE18T! v6rGY*`; and the rest of the line, a command's: no `+`, `!`, `*`,
            // `^`, `#`, `~` or `?`, which a password OCR split holds, `suimJ bCGG+pa3`.)
            if match.end - match.start >= 80, match.end >= 2, Self.isLetter(utf8[match.end - 2]), let first = piece(from: start, maximumSpaces: 0),
               first.end - first.start <= 8, (0x61...0x7A).contains(utf8[first.start]),
               utf8[first.start..<first.end].allSatisfy({ Self.isAlphanumeric($0) || "-_./=:,".utf8.contains($0) }),
               !utf8[first.end..<lineEnd].contains(where: { "+!*^#~?".utf8.contains($0) }),
               // (A piece with a capital right after a small letter and a digit is random, not a
               // word's rest: `x6xhAwt twO@P`, a password OCR split; so is one whose line reads as a
               // random token as a whole: `nxHKvs fd3XoDU5M0`, split after its letters.)
               !(Self.caseChanges(utf8[first.start..<first.end]) >= 1
                 && (utf8[first.start..<first.end].contains(where: { (0x30...0x39).contains($0) }) || Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, lineEnd))))) {
                return nil
            }
            // (Nor an option's value the terminal wrapped at the space before it: `… --token-file
            // /run/secrets/runner --name` / `runner-01`, a command line 80 bytes or more that ends with
            // a long option, then a name alone on the next line: small letters, digits, `-` and `_`.)
            if match.end - match.start >= 80, endsWithLongOption(match.end - 1), let first = piece(from: start, maximumSpaces: 0),
               utf8[first.end..<lineEnd].allSatisfy(Self.isSpace), (0x61...0x7A).contains(utf8[first.start]),
               utf8[first.start..<first.end].allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }) {
                return nil
            }
            // (Nor a line that goes on with a long option, wherever the terminal wrapped the command:
            // `… --token-file /run/secre` / `ts/runner --name runner-01`.)
            if let pieces = piecesToLineEnd(from: start, atMost: 8, maximumSpaces: .max),
               pieces.dropFirst().contains(where: isLongOption) {
                return nil
            }
            // (Nor a message of three words or more: `; TSIG error with server: tsig verify failure`
            // after `nsupdate -k …key`, OCR reading its `;` as `5`.)
            if utf8[start..<lineEnd].split(whereSeparator: Self.isSpace).count(where: { isSentenceWord(($0.startIndex, $0.endIndex)) }) >= 3 { return nil }
            // (Nor a field's line whose name of letters, before its colon, names no secret: `consul
            // acl token list` prints `AccessorID: 90817545-…`, each token's public id; round 152.
            // OCR may read one of its letters as a digit, `Accessor1D:`; a token has many.)
            if let first = piece(from: start, maximumSpaces: 0), first.end - first.start >= 3, first.end - first.start <= 33, utf8[first.end - 1] == 0x3A,
               case let name = utf8[first.start..<(first.end - 1)], Self.isLetter(name.first ?? 0),
               name.allSatisfy(Self.isAlphanumeric), name.count(where: { (0x30...0x39).contains($0) }) <= 1,
               Self.secretName(slice(first.start, first.end - 1)) == nil {
                return nil
            }
            // A token or key (`gcloud auth print-access-token`'s, `cat config/master.key`).
            if let token = printedToken(from: start, after: match) { return token }
            // (A password shorter than a token whose first glyphs OCR read as a short word, `Ini
            // kgEWJ83iGaFN` for `Jn1kgEWJ83iGaFN`: that piece starts the value, as a split after letters does.)
            let shortFirstPiece = splitAfterLetters ?? (separate == nil ? piece(from: start, maximumSpaces: 0) : nil)
            guard let (_, first, quoted) = separate ?? shortFirstPiece.map({ (start, $0.end, false) }) else { return nil }
            // The value and what OCR split from it: at most four pieces to the line's end, at most 64 characters.
            guard let pieces = piecesToLineEnd(from: first, atMost: 3, maximumSpaces: 1) else { return nil }
            let end = pieces.last?.end ?? first
            let value = squeezed(start, end)
            // Hexadecimal that git or a checksum tool printed is a hash (`git log -1 --format=%H -- token.go`).
            if value.allSatisfy(\.isHexDigit), Self.hashPrintingCommand.firstMatch(in: match.text) != nil { return nil }
            // (Nor code: a `#` prompt is a comment's mark too, `# SECRET_KEY = …` / `SECRET_KEY = 'x'`.)
            // (A value whose first piece reads as a word must look like a secret as a whole: letters and
            // a digit are not enough, `done x86`.)
            guard value.count >= 6, value.count <= 64, Self.fileName.matches(in: value).isEmpty, Self.shellWord.firstMatch(in: value) == nil,
                  Self.isPasswordValue(value, quoted: quoted),
                  Self.looksLikeSecretOnItsOwn(value) || Self.isRandomToken(Self.withoutOCRJunk(value))
                    || shortFirstPiece == nil && value.contains(where: \.isLetter) && value.contains(where: \.isNumber) && !value.allSatisfy(\.isHexDigit) else { return nil }
            return secret(.password, nil, start, end)
        }
    }

    /// Whether a piece starts as a long option does: `--` and a letter (`--name`, `--cookie-expire=2h`).
    func isLongOption(_ piece: (start: Int, end: Int)) -> Bool {
        piece.end - piece.start >= 3 && utf8[piece.start] == 0x2D && utf8[piece.start + 1] == 0x2D && Self.isLetter(utf8[piece.start + 2])
    }

    /// Whether the line that ends at `lineEnd` (its line break) ends with a long option, ` --name`.
    func endsWithLongOption(_ lineEnd: Int) -> Bool {
        var index = lineEnd
        while index > 0, Self.isSpace(utf8[index - 1]) || utf8[index - 1] == 0x0D { index -= 1 }
        let end = index
        while index > 0, Self.isLetter(utf8[index - 1]) || utf8[index - 1] == 0x2D { index -= 1 }
        return end - index >= 4 && utf8[index] == 0x2D && utf8[index + 1] == 0x2D && Self.isLetter(utf8[index + 2])
            && index > 0 && Self.isSpace(utf8[index - 1])
    }

    /// The first piece of a value alone on its line that OCR split after a run of small letters
    /// (`hyct ?rkiV8RIYp` for `hyct?rkiV8RIYp`): 3 to 8 small letters, which read as a word, then
    /// one or two more pieces a single space apart, the first of them machine-made. Only where a
    /// command that reads a secret printed the line does its shape make it a value, not two words.
    /// (Not a label and its value: the value after `:` or `=`, `tomas :51Le…` in a secrets file, or
    /// a token of 16+ characters after it, `token npm_…` as `npm token create` prints it.)
    /// (Or split after a symbol, `Puq! qWix2BotViU`: letters and one symbol, then one piece of 8+
    /// characters with a digit whose case changes twice or more, or which changes between capitals,
    /// small letters, digits and symbols six times or more, as no word after `Done!` does. The
    /// letters may be of any case: `DIM! C1Hv5Ynb7@ye` for `DlM!C1Hv5Ynb70ye`, its `l` read `I`.)
    func firstPieceOfValueSplitAfterLetters(_ start: Int) -> (start: Int, end: Int)? {
        guard let pieces = piecesToLineEnd(from: start, atMost: 3, maximumSpaces: 1), pieces.count >= 2, pieces[0].start == start,
              (3...8).contains(pieces[0].end - pieces[0].start), isMachineMade(pieces[1].start, pieces[1].end),
              pieces.dropFirst().reduce(0, { $0 + $1.end - $1.start }) < 16, !":=|".utf8.contains(utf8[pieces[1].start]) else { return nil }
        let first = utf8[pieces[0].start..<pieces[0].end], second = utf8[pieces[1].start..<pieces[1].end]
        if first.allSatisfy({ (0x61...0x7A).contains($0) }) { return pieces[0] }
        guard pieces.count == 2, let symbol = first.last, "!?#*&%$@^~+".utf8.contains(symbol), first.count >= 4,
              case let letters = first.dropLast(), letters.allSatisfy(Self.isLetter),
              second.count >= 8, Self.caseChanges(second) >= 2 || Self.classSwitches(second) >= 6, second.contains(where: { (0x30...0x39).contains($0) }) else { return nil }
        return pieces[0]
    }

    /// Whether the line at `start` is a token whose first glyphs OCR read as a short word
    /// (`Tbf f2d2524c71fb22a91 aee283c1 …`: `7bf` in a light theme): a first piece of three
    /// characters at most, then machine-made pieces only, to the line's end. Only the printed
    /// token's test (16+ random characters) may take it.
    func startsWithJunkBeforeToken(_ start: Int) -> Bool {
        guard let pieces = piecesToLineEnd(from: start, atMost: 40, maximumSpaces: 1), pieces.count >= 2,
              pieces[0].end - pieces[0].start <= 3 else { return false }
        return pieces.dropFirst().allSatisfy { isMachineMade($0.start, $0.end) }
    }

    /// Whether the line at `start` is a value OCR split after a first piece of 4 to 8 letters cased
    /// as no word is (`VAMt j Bm-60XhZF _` for `VAMtjBm-6oXhzF_`): both cases, not a capital then
    /// small letters (`Done`) nor capitals then a plural's `s` (`URLs`); then one to three pieces to
    /// the line's end, one of them machine-made. (Capitals after a small letter make a piece
    /// machine-made already, ``isMachineMade(_:_:)``.)
    func startsWithOddlyCasedLetters(_ start: Int) -> Bool {
        guard let pieces = piecesToLineEnd(from: start, atMost: 4, maximumSpaces: 1), pieces.count >= 2, pieces[0].start == start,
              case let first = utf8[pieces[0].start..<pieces[0].end], (4...8).contains(first.count), first.allSatisfy(Self.isLetter),
              case let capitals = first.count(where: { (0x41...0x5A).contains($0) }), capitals > 0, capitals < first.count,
              !(capitals == 1 && (0x41...0x5A).contains(first[first.startIndex])), !(capitals == first.count - 1 && first.last == 0x73) else { return false }
        return pieces.dropFirst().contains { isMachineMade($0.start, $0.end) }
    }

    /// A search tool (`grep`, ripgrep, `ag`, `ack`, `git grep`, Windows' `findstr`, `Select-String`),
    /// and the start of a line it prints: a file's name or path and maybe a line number, then `:`.
    static let searchTool = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:[ef]?grep|rg|ag|ack|findstr|select-string|sls)(?![A-Za-z0-9_\-])"#)
    /// (OCR may split the path once or twice: `src/auth/views. py:42:`.)
    static let searchHit = TextMatcher(#"^(?=[^:\n]{0,240}[/.])[^\s:]{1,200}(?:[ \t][^\s:]{1,40}){0,2}:(?:[ \t]?\d{1,7}[ \t]?:)?"#)

    /// crypt(3)'s ids of password hashes (`$1$` MD5, `$2y$` bcrypt, `$5$`/`$6$` SHA-2, `$y$`
    /// yescrypt, `$apr1$` Apache's MD5, whose `1` OCR may read as a letter: `$apri$`), one list for
    /// ``passwordHash`` and ``storedHash``.
    static let cryptIds = "apr[1ilI|]|1|2[abxy]?|5|6|7|8|9|y|gy"

    /// A password's hash as crypt(3), Apache and LDAP write it: `$apr1$…`, `$2y$10$…`, `$6$…`,
    /// `{SSHA}…`, `SCRAM-SHA-256$…`. (OCR may read its first `$` as `S`, `S6$DWSK…`, or put an `S` before it: `S$6$rm1T…`.)
    static let passwordHash = TextMatcher(#"(?:^|[:\s"'])(?:S?\$|S)(?:"# + cryptIds + #"|argon2(?:id?|d)|scrypt|pbkdf2[\w\-]*)\$|\{(?:SSHA|SHA|SMD5|MD5|CRYPT|SHA256-CRYPT|SHA512-CRYPT|BLF-CRYPT|ARGON2I|ARGON2ID|PBKDF2)[^}]{0,16}\}|SCRAM-SHA-(?:1|256)\$"#)

    /// A command that prints a file whose name names a key, a token or a secret (`cat
    /// config/master.key`, `sudo cat /var/lib/rancher/k3s/server/node-token`, `type secret.txt`).
    static let filePrintingCommand = TextMatcher(
        #"(?i)^[^\n]*?(?<![A-Za-z0-9_\-])(?:cat|head|tail|less|more|bat|type|gc|get-content)[ \t]+(?:-[A-Za-z]+[ \t]+)*[^\s|;&]*(?:key|token|secret|credential)[^\s|;&/]*[ \t]*$"#)

    /// The token or key a command that reads one printed on the next line (`gcloud auth
    /// print-access-token`, `cat config/master.key`): one machine-made line, as long as such tokens
    /// are (16 to 4,096 characters), which OCR may have split with single spaces. Hexadecimal alone
    /// is a hash other commands print (`git log -1 --format=%H -- token.go`), unless the command
    /// printed a file that names a key.
    func printedToken(from start: Int, after command: TextMatcher.Match) -> Secret? {
        guard let pieces = piecesToLineEnd(from: start, atMost: 40, maximumSpaces: 1), let last = pieces.last else { return nil }
        // (The screen's edge may leave a glyph of junk after it: `…eBm0039;`.)
        let value = Self.withoutTrailingJunk(squeezed(start, last.end))
        guard (16...4096).contains(value.count), Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
        // (A setting's line, `key=UIQf…`, is its name and its value: the value's rules take it.)
        if Self.settingStart.firstMatch(in: value) != nil { return nil }
        if value.allSatisfy(\.isHexDigit) {
            let commandLine = command.text.trimmingCharacters(in: .newlines)
            guard Self.filePrintingCommand.firstMatch(in: commandLine) != nil || Self.keyMakingCommand.firstMatch(in: commandLine) != nil else { return nil }
        }
        return secret(.apiKey, nil, start, last.end)
    }

    /// A shell prompt and a command that prints a file whose own name (not its folder's) says it
    /// holds credentials: `sudo cat /etc/openvpn/client/auth.txt`, `type credentials.txt`, `cat
    /// ~/.config/app/password`, vsftpd's `virtual_users.txt` (a name's line, then its password's).
    /// Not a public key's or a certificate's (`pubkey.pem`, `*.crt`). (OCR
    /// may split the name at its dot: `auth. txt`, or read a `_` of it as a space: `smokeping secrets`, round 164.) Options may count lines: `tail -2`, `head -n 5`.
    /// A path of 256 bytes and a name of 128 at most: each start of the lazy path tries the name's
    /// look-ahead, so a piece of any length stays linear.
    static let credentialFilePrinting = TextMatcher(
        #"(?im)^[ \t]*(?:[$#%>❯]|PS [^>\n]{1,80}>)[ \t]+(?:sudo[ \t]+)?(?:cat|head|tail|less|more|bat|type|gc|get-content)[ \t]+(?:-[A-Za-z0-9]+(?:[ \t]+\d{1,6})?[ \t]+){0,8}[^\s|;&]{0,256}?(?:(?<=[A-Za-z0-9])[ \t])?(?<![A-Za-z])(?:auth|cred|pass|pwd|secret|token|login|psk|virtual_users|vusers)(?![^\s|;&/\\]{0,128}(?:pub|\.crt|\.cer))[^\s|;&/\\]{0,128}(?:[ \t]\.?[A-Za-z0-9]{1,5})?[ \t]*\r?\n"#)

    /// Whether a shell's prompt starts at `index`: its mark alone, then a space or the line's end.
    func isPrompt(at index: Int) -> Bool {
        "$#%>❯".utf8.contains(utf8[index]) && (index + 1 == utf8.count || Self.isSpace(utf8[index + 1]) || Self.isLineBreak(utf8[index + 1]))
    }

    /// Whether the text ends after `index`'s line, or the next line that holds anything is a prompt.
    func promptOrEnd(after index: Int) -> Bool {
        let next = nextFilledLine(after: index).start
        return next == utf8.count || isPrompt(at: next)
    }

    /// A line that is a JSON entry: a quoted name and a colon.
    static let jsonEntry = TextMatcher(#"^["“”][^"“”\n]{1,128}["“”][ \t]*:"#)

    /// The lines such a file printed, up to the next prompt (eight at most): each that holds one
    /// value of 6 to 40 characters (OCR may have split it twice) that looks like a secret on its
    /// own is one; the user's name above it (`deploy`) is not. (An OpenVPN `auth-user-pass` file
    /// holds a user's line, then the password's.) A file that printed one line of one piece before
    /// the next prompt (`key-pass.txt`, OCR read a digit of it as a letter: `ORHsOFyT_i`) holds a
    /// password when the piece is 8+ characters that mix capitals and small letters.
    /// Whether a line's one piece is a config file's section whose `[` OCR read as another glyph
    /// (`Cshop-admin]` for `[shop-admin]`): a section's name in small letters (digits, `-`, `_`,
    /// `.`) between that glyph and the `]`.
    func isSectionWithItsBracketMisread(_ pieces: [(start: Int, end: Int)]) -> Bool {
        guard pieces.count == 1, case let piece = utf8[pieces[0].start..<pieces[0].end], piece.count >= 4, piece.last == 0x5D else { return false }
        return piece.dropFirst().dropLast().allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || "-_.".utf8.contains($0) }
    }

    func printedCredentials() -> [Secret] {
        guard mentions("auth", "cred", "pass", "pwd", "secret", "token", "login", "psk", "virtual_users", "vusers"),
              mentions("cat ", "head ", "tail ", "less ", "more ", "bat ", "type ", "gc ", "get-content ") else { return [] }
        var found: [Secret] = []
        for match in Self.credentialFilePrinting.matches(in: searchable) {
            var lineStart = match.end, printed = 0, filled = 0
            var previous: (start: Int, end: Int)?
            // vsftpd's virtual users (`virtual_users.txt`, `vusers.txt`, the file `db_load -T -t hash`
            // reads): a user's name on one line, its password on the next, whatever it looks like.
            let command = lowered[match.start..<match.end]
            let alternating = Self.holds(command, Array("virtual_users".utf8)) || Self.holds(command, Array("vusers".utf8))
            // (After a user's `$` prompt, a line starting `# ` is the file's comment, not root's prompt.)
            let mark = utf8[match.start..<match.end].first { !Self.isSpace($0) }
            for _ in 0..<8 where lineStart < utf8.count {
                var lineEnd = lineStart
                while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
                defer {
                    lineStart = lineEnd
                    while lineStart < utf8.count, Self.isLineBreak(utf8[lineStart]), lineStart - lineEnd < 2 { lineStart += 1 }
                }
                var start = lineStart
                while start < lineEnd, Self.isSpace(utf8[start]) { start += 1 }
                guard start < lineEnd else { continue }
                // The next prompt ends what the file printed.
                if isPrompt(at: start), !(utf8[start] == 0x23 && mark != 0x23) { break }
                filled += 1
                // (Under a line that is a user's name alone: one piece of a name's characters. A
                // user's own config, `virtual_users/ana`, holds `local_root=…` lines.)
                defer { previous = (start, lineEnd) }
                if alternating, filled % 2 == 0, let above = previous, isUserNameLine(above),
                   // (OCR may split the password at each `!`, on both sides: `rmwCPx ! d#9! FGw`.)
                   let pieces = piecesToLineEnd(from: start, atMost: 5, maximumSpaces: 1), let last = pieces.last,
                   case let value = squeezed(start, last.end), (4...64).contains(value.count), !value.contains("="), !Self.isPlaceholder(value) {
                    printed += 1
                    found.append(secret(.password, nil, start, last.end))
                    continue
                }
                // A line of three fields (davfs2's `secrets`: `https://…/dav/  ana  E9inovNxp3W0g`, a
                // place, a user, a password): its last, when the first is a place (an address, a
                // path, a host: a `/` or a `.` in it) and the last looks like a password (letters and
                // digits at least).
                // (OCR may put a space after an address's scheme, `https: //…`, and split the password:
                // what follows the user is its.)
                if utf8[start] != 0x23, var fields = piecesToLineEnd(from: start, atMost: 8, maximumSpaces: .max), fields.count >= 3 {
                    if utf8[fields[0].end - 1] == 0x3A, utf8[fields[1].start] == 0x2F {
                        fields[0].end = fields[1].end
                        fields.remove(at: 1)
                    }
                    if (3...4).contains(fields.count), utf8[fields[0].start..<fields[0].end].contains(where: { $0 == 0x2F || $0 == 0x2E }),
                       let last = fields.last, case let value = squeezed(fields[2].start, last.end), (6...64).contains(value.count),
                       !value.contains("/"), !value.contains("="), Self.isPasswordValue(value, quoted: false),
                       Self.looksLikeSecretOnItsOwn(value) || value.contains(where: \.isNumber) && value.contains(where: \.isLetter) {
                        printed += 1
                        found.append(secret(.password, nil, fields[2].start, last.end))
                        continue
                    }
                }
                // (Nor a comment, a section or a directive of a config file: `# …`, `[…]`, `@include …`;
                // a password may start with `#` or `;` glued to it, or `@` as the line's one piece.)
                // (Nor a line that opens an object or a list, `"github-oauth": {`, nor a JSON entry,
                // `"github.com": "${GITHUB_TOKEN}"`: a map's values have rules of their own.)
                guard utf8[start] != 0x3C, ![0x7B, 0x5B].contains(utf8[lineEnd - 1]), Self.jsonEntry.firstMatch(in: slice(start, lineEnd)) == nil, let pieces = piecesToLineEnd(from: start, atMost: 6, maximumSpaces: 1), let last = pieces.last,
                      // (More than three pieces: an identity, maybe a colon OCR put spaces around, and a
                      // key it split up to three times, `client1: f f480f fc561¢39…`.)
                      case let identity = utf8[pieces[0].end - 1] == 0x3A ? 1 : pieces.count > 1 && slice(pieces[1].start, pieces[1].end) == ":" ? 2 : 0,
                      pieces.count < 4 || identity > 0 && pieces.count - identity <= 4,
                      !("#;".utf8.contains(utf8[start]) && pieces[0].end - pieces[0].start == 1), !(utf8[start] == 0x40 && pieces.count > 1),
                      !(utf8[start] == 0x5B && utf8[last.end - 1] == 0x5D), !isSectionWithItsBracketMisread(pieces),
                      !pieces.indices.contains(where: { isWordOfAPrintedLine($0, of: pieces) })
                else { continue }
                // (An identity before its key, `client1:`, is no secret: the key starts after it; nor is
                // one glued to it, `root:ALoFa_lupo`, a user's name and one colon as rsyncd's secrets have it.)
                // (Not when another colon follows, `smtp.acme.io:ops :EVku…`: exim's host, user and password.)
                let glued = identity == 0 && !utf8[pieces[0].end..<last.end].contains(0x3A) ? gluedIdentityEnd(pieces[0]) : nil
                // (OCR's space before the identity's colon, glued to the key: `boomer :51cvu…`, judged as
                // one glued, with capitals and small letters both: `region :eu-west-1` stays; round 164.)
                let spacedIdentity = identity == 0 && glued == nil && pieces.count == 2 && utf8[pieces[1].start] == 0x3A && pieces[1].end - pieces[1].start > 1
                    && !utf8[(pieces[1].start + 1)..<pieces[1].end].contains(0x3A)
                    && utf8[pieces[0].start..<pieces[0].end].allSatisfy({ Self.isAlphanumeric($0) || "._@-".utf8.contains($0) })
                let keyStart = spacedIdentity ? pieces[1].start + 1 : identity > 0 && identity < pieces.count ? pieces[identity].start : glued ?? start
                let value = squeezed(keyStart, last.end)
                printed += 1
                // (Or under a user's name alone, the file's two lines: OpenVPN's `auth-user-pass` file,
                // `ct` / `QETLAdQ70i`, a name OCR misread that is no word; round 136.)
                let underAName = printed == 2 && filled == 2 && previous.map({ $0.end - $0.start <= 32 && isUserNameLine($0) }) ?? false
                let alone = (printed == 1 || underAName) && pieces.count == 1 && promptOrEnd(after: lineEnd) && value.count >= 8
                    && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase)
                // (An identity glued to its key, `client1:` and 32 hexadecimal digits, OCR may read with one more.)
                guard (6...48).contains(value.count), !value.contains("="), !value.contains("/"),
                      Self.isPasswordValue(value, quoted: false),
                      Self.looksLikeSecretOnItsOwn(value) || alone || glued != nil && Self.isValueAfterAnIdentity(value)
                        || spacedIdentity && Self.isValueAfterAnIdentity(value) && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase) else { continue }
                found.append(secret(.password, nil, keyStart, last.end))
            }
        }
        return found
    }

    /// Whether a printed line (from its first piece, maybe with spaces after it) is a user's name
    /// alone: letters, digits, `.`, `_`, `@` and `-`.
    func isUserNameLine(_ line: (start: Int, end: Int)) -> Bool {
        utf8[line.start..<line.end].reversed().drop(while: Self.isSpace).allSatisfy { Self.isAlphanumeric($0) || "._@-".utf8.contains($0) }
    }

    /// Where the value starts in a piece that glues a user's name to it with one colon
    /// (`root:ALoFa_lupo`): a name of letters, digits, `.`, `_`, `@` and `-` (32 at most), then
    /// no other colon (`.pgpass`'s `host:port:db:user:password` is a line of its own).
    func gluedIdentityEnd(_ piece: (start: Int, end: Int)) -> Int? {
        let bytes = utf8[piece.start..<piece.end]
        guard let colon = bytes.firstIndex(of: 0x3A), (1...32).contains(colon - piece.start), colon + 1 < piece.end,
              !bytes[(colon + 1)...].contains(0x3A),
              bytes[..<colon].allSatisfy({ Self.isAlphanumeric($0) || "._@-".utf8.contains($0) }) else { return nil }
        return colon + 1
    }

    /// Whether a value glued to a user's name in a credentials file is a password by its look: 6+
    /// characters, with capitals and small letters or letters and digits (`ALoFa_lupo`: OCR read its
    /// `1` as `l`), not a word (`Production`) nor a host (`db01.acme.io`). (Only glued: after `: `,
    /// a YAML file's, `region: eu-west-1` is a setting.)
    static func isValueAfterAnIdentity(_ value: String) -> Bool {
        value.count >= 6 && value.contains(where: \.isLetter) && !value.contains(".") && sentenceWord.firstMatch(in: value) == nil
            && (value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase) || value.contains(where: \.isNumber))
    }

    /// Whether the piece at `index` of a printed credentials line is a word of a sentence, not
    /// part of an identity and its key: a name before a colon OCR put spaces around is a name,
    /// `client : fd68…`, or one before it, `client! :d0ad…`, or after it, `client: fed6…`; hex
    /// letters after 16+ hex digits are the key's tail OCR split off, `…5fa2t fd`, `…451f boc`; letters without
    /// a vowel are no word but a password's piece OCR split off, `Wwq8qe3wg* kgqc`.
    func isWordOfAPrintedLine(_ index: Int, of pieces: [(start: Int, end: Int)]) -> Bool {
        let piece = pieces[index]
        // (``isSentenceWord(_:)`` asks for a vowel.)
        guard isSentenceWord(piece) else { return false }
        if index == 0, pieces.count >= 3, slice(pieces[1].start, pieces[1].end) == ":" { return false }
        // (The key after the name's colon may be split, a symbol of it alone: `boomer: ! ImkMg…`; round 164.)
        if index == 0, pieces.count >= 2, utf8[pieces[1].start] == 0x3A || utf8[piece.end - 1] == 0x3A,
           let last = pieces.last, squeezed(pieces[1].start, last.end).count >= 9 { return false }
        // (OCR may read a digit of that tail as a letter: `…451f boc` for `…451fb0c`.)
        if index > 0, utf8[piece.start..<piece.end].allSatisfy({ (0x61...0x66).contains($0) || "oil".utf8.contains($0) }),
           slice(pieces[index - 1].start, pieces[index - 1].end).filter(\.isHexDigit).count >= 16 { return false }
        return true
    }

    /// PgBouncer's `auth_file` (`userlist.txt`): a line of two quoted strings, a user and its
    /// password (group 2) as typed, or its hash, no secret to mask: `md5` and 32 hexadecimal
    /// digits, `SCRAM-SHA-256$…`. (OCR may curl the quotes, and split the file's name, `user list .txt`,
    /// or add a letter to it, `userLlist.txt`: the program's name, and the name's end, are cues too.)
    /// (OCR may read a closing quote twice, `"svc_sync"” "HN4D…”"`, and a `_` of the user's name
    /// as a space, `"svc sync"`.)
    static let quotedUserLine = TextMatcher(#"(?m)^[ \t]*["“”]([^"“”\s]{1,64}(?: [^"“”\s]{1,64}){0,2})["“”]{1,2}[ \t]+["“”]([^"“”\n]{1,128})["“”]"#)

    func userListPasswords() -> [Secret] {
        guard mentions("userlist", "user list", "auth_file", "pgbouncer", "list.txt") else { return [] }
        return Self.quotedUserLine.matches(in: searchable).compactMap { match in
            guard let value = match[2], let range = match.range(2), !value.hasPrefix("SCRAM-SHA-256$"),
                  // (OCR may read the `5` of `md5` as `S`, split the hash, `md51ea2…83d6f f fda®b8…`,
                  // and read a glyph more or less.)
                  case let hash = value.filter({ !$0.isWhitespace }),
                  !((hash.hasPrefix("md5") || hash.hasPrefix("mdS")) && (34...36).contains(hash.count)) else { return nil }
            return password(range.lowerBound, range.upperBound, quoted: true)
        }
    }

    // MARK: - Names and values apart

    /// A setting given as a name and a value in two fields: a JSON or JavaScript object's `key` or
    /// `name` and its `value` (Postman's environments, `{ name: 'DB_PASSWORD', value: '…' }`), or a
    /// Kubernetes container's `env` entry (`- name: DB_PASSWORD` on one line, `value: …` on the next),
    /// or a JSON object named for the setting whose `"value"` comes a few fields down (`terraform
    /// output -json`: `"db_password": {`, `"sensitive": true,`, `"type": "string",`, `"value": "…"`;
    /// not when a field between names it: `"Parameter": {`, `"Name": "…"`, `"Value": "…"`).
    /// (OCR may read a straight quote as a curly one, the name's `:` as `;`, `“keyName"; "keyl",`, and a `_` of a name in capitals as a space or
    /// put one beside it: `DB_ PASSWORD`, `API SECRET`.) The name's field (group 1) may be
    /// `keyName`, its value a path (`"Name": "/prod/shop/db_password"`, AWS SSM's), and up to three
    /// fields may come between it and `"value"` on lines of their own
    /// (200 bytes each at most: a long line costs no look-ahead past that).
    /// (OCR may read an entry's `name` as `mame`, `narne` or `nane`: round 156.)
    static let namedValue = TextMatcher(
        #"(?im)(?<![A-Za-z])["'“”‘’]?(key(?:_?name)?|name)["'“”‘’]?[ \t]*[:;=][ \t]*["'“”‘’]{1,2}((?:/?[A-Za-z0-9_.\-]{1,64}/){0,8}[A-Za-z][A-Za-z0-9_.\-]{1,63})["'“”‘’]{1,2}[ \t]*,(?:[ \t]*\r?\n(?:[^\n{}]{0,200}\r?\n){0,3}?)?[ \t]*["'“”‘’]?value["'“”‘’]?[ \t]*[:=]|^[ \t]*(?:-[ \t]*)?[nm]a(?:m|rn|n)e[ \t]*:[ \t]*["']?([A-Za-z][A-Za-z0-9_.\-]{1,63}(?:(?: ?_ ?| )[A-Z0-9][A-Z0-9_]*)*)["']?[ \t]*\r?\n[ \t]*value[ \t]*:|["“”]([A-Za-z][A-Za-z0-9_.\- ]{1,63})["“”]{1,2}[ \t]*:[ \t]*\{[ \t]*\r?\n(?:(?![ \t]*["“”]?(?:name|key)["“”]?[ \t]*:)[^\n{}]*\r?\n){0,6}?[ \t]*["“”]value["“”][ \t]*:"#)

    /// The value of a setting whose name, in a field of its own, names a secret (``namedValue``).
    func namedValues() -> [Secret] {
        guard mentions("value:", "value\"", "value'", "value”", "value :", "value\u{201D}") else { return [] }
        return Self.namedValue.matches(in: searchable).compactMap { match in
            // (A parameter's name may be a path: AWS SSM's `"Name": "/prod/shop/db_password"`; its last part names it.)
            guard let name = (match[2] ?? match[3] ?? match[4]).map({ Self.joinedName(String($0.split(separator: "/").last ?? "")) }),
                  let (start, end, quoted) = value(after: match.end), end > start else { return nil }
            let value = squeezed(start, end)
            guard let kind = Self.secretName(name) else {
                // An object that is a key, named only by its number (`az storage account keys list`:
                // `"keyName": "key1"`, `"value": "…"`): a random value is that key.
                let words = Self.nameWords(name), field = match[1]?.lowercased()
                guard field == "keyname" || field == "key_name" || words.contains(where: { $0.hasPrefix("key") }),
                      !Self.namesAPublicValue(words), value.count >= 20, Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
                return secret(.apiKey, nil, start, end)
            }
            guard value.count >= 4, Self.isPasswordValue(value, quoted: quoted) || Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
            return secret(kind, nil, start, end)
        }
    }

    /// An `expect` script's prompt for a password (`expect "assword:"`), then the `send` that answers it.
    static let expectThenSend = TextMatcher(
        #"(?im)^[ \t]*expect[ \t]+(?:-[a-z]+[ \t]+)*["'{“”‘’][^\n]*?(?:assword|assphrase|passcode|PIN)[^\n]*\n[ \t]*send[ \t]+(?:--[ \t]+)?["'{“”‘’]"#)

    /// What an `expect` script sends after a password prompt, to its closing quote (a `\r` or `\n`
    /// it ends with is the Enter key).
    func expectedPasswords() -> [Secret] {
        guard mentions("expect") else { return [] }
        return Self.expectThenSend.matches(in: searchable).compactMap { match in
            var end = match.end
            while end < utf8.count, !Self.isLineBreak(utf8[end]) { end += 1 }
            // (The closing quote may be a curly one OCR read: its last byte, 0x9C to 0x9D.)
            guard var close = utf8[match.end..<end].lastIndex(where: { [0x22, 0x27, 0x7D, 0x9C, 0x9D, 0x98, 0x99].contains($0) }), close > match.end else { return nil }
            if utf8[close] >= 0x80 {
                guard close >= match.end + 2, utf8[close - 2] == 0xE2, utf8[close - 1] == 0x80 else { return nil }
                close -= 2
            }
            var stop = close
            if stop - match.end >= 2, utf8[stop - 2] == 0x5C, [0x72, 0x6E].contains(utf8[stop - 1]) { stop -= 2 }
            guard stop > match.end, Self.isPasswordValue(squeezed(match.end, stop), quoted: true) else { return nil }
            return secret(.password, nil, match.end, stop)
        }
    }
}
