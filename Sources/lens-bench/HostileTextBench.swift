import ArgumentParser
import Foundation
import LensApp
import LensCore

/// Times extraction (secrets masked, then entities) on texts made to cost the most: thousands of
/// labels on one line, long runs with no space, numbers in groups, names side by side. Each kind
/// is timed at two sizes: a cost linear in the text grows by the sizes' ratio, a quadratic one by
/// its square. Ordinary text (a corpus's ground truth, cut to the same sizes) is the baseline,
/// measured in the same run.
struct HostileTextBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile-text",
        abstract: "Time extraction on hostile texts at two sizes: growth with size, and cost against ordinary text.",
        discussion: """
            Prints, per kind: the time at --size and at 4 × --size (the fastest of --rounds), the \
            growth between them (4 is linear, 16 quadratic) and the time per kilobyte at the larger \
            size against ordinary text's. A kind that takes longer than --give-up seconds once is \
            reported as such and not timed again.

            Example: lens-bench hostile-text --corpus ../shared/corpus/public --size 8000
            """)

    @Option(help: "A corpus folder whose JSON sidecars hold ground-truth text: the ordinary baseline.")
    var corpus = "../shared/corpus/public"

    @Option(help: "The smaller size in bytes; the larger is four times it.")
    var size = 8_000

    @Option(help: "Timed runs per kind and size; the fastest is printed.")
    var rounds = 3

    @Option(help: "Stop timing a kind after one run slower than this (seconds).")
    var giveUp: Double = 30

    @Option(help: "Only the kinds whose name contains this.")
    var only: String?

    @Flag(help: "Also time each stage apart (secrets, dates, money, people, the rest) at both sizes.")
    var stages = false

    @Option(help: "Write each kind's text at the larger size to this folder (for timing `lens extract` of two builds) and stop.")
    var write: String?

    /// A kind of hostile text: made to any size from a repeated unit or a generator.
    struct Kind: Sendable {
        var name: String
        var make: @Sendable (Int) -> String
    }

    static func repeated(_ unit: String) -> @Sendable (Int) -> String {
        { size in String(String(repeating: unit, count: size / unit.utf8.count + 1).utf8.prefix(size))! }
    }

    /// A header (a command, a table's header), then `unit` repeated to about `size` bytes.
    static func headed(_ header: String, _ unit: String) -> @Sendable (Int) -> String {
        { size in header + String(repeating: unit, count: max(1, size / unit.utf8.count)) }
    }

    /// Deterministic characters from `alphabet`, `count` of them.
    static func random(_ alphabet: String, _ count: Int, seed: UInt64 = 7) -> String {
        let letters = Array(alphabet)
        var state = seed
        return String((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return letters[Int(state >> 33) % letters.count]
        })
    }

    static let base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    static let kinds: [Kind] = [
        Kind(name: "token:\" repeated", make: repeated("token:\"")),
        Kind(name: "token: repeated", make: repeated("token:")),
        Kind(name: "password= repeated", make: repeated("password=")),
        Kind(name: ";Password= repeated", make: repeated(";Password=")),
        Kind(name: "secret: \"a repeated", make: repeated("secret: \"a ")),
        Kind(name: "Password<tab> repeated", make: repeated("Password\t")),
        Kind(name: "export A_KEY= repeated", make: repeated("export A_KEY=")),
        Kind(name: "API_KEY=sk- repeated", make: repeated("API_KEY=sk-")),
        Kind(name: "password: on each line", make: repeated("password:\n")),
        Kind(name: "key and 12 random, spaced", make: { size in
            let pieces = random(base64, size / 17 * 12 + 12)
            return Array(pieces).chunked(12).map { "key " + String($0) }.joined(separator: " ")
        }),
        Kind(name: "$ cat authauth…", make: { "$ cat " + repeated("auth")($0 - 6) }),
        Kind(name: "$ cat auth.txt on each line", make: repeated("$ cat auth.txt\n")),
        Kind(name: "groups of four digits", make: repeated("4111 ")),
        Kind(name: "one run of digits", make: repeated("4")),
        Kind(name: "one run of hex", make: { random("0123456789abcdef", $0) }),
        Kind(name: "one base64 blob", make: { random(base64, $0) }),
        Kind(name: "base64 split every 7", make: { size in Array(random(base64, size * 7 / 8)).chunked(7).map { String($0) }.joined(separator: " ") }),
        Kind(name: "A_ repeated", make: repeated("A_")),
        Kind(name: "-p repeated", make: repeated("-p")),
        Kind(name: "a@ repeated", make: repeated("a@")),
        Kind(name: "https://user: repeated", make: repeated("https://user:")),
        Kind(name: "BEGIN PRIVATE KEY lines", make: repeated("-----BEGIN PRIVATE KEY-----\n")),
        Kind(name: "names side by side", make: repeated("Anna Smith, ")),
        Kind(name: "From: and a name repeated", make: repeated("From: Anna Smith ")),
        Kind(name: "code sentences", make: repeated("Your code is 123456. ")),
        Kind(name: "phone numbers", make: repeated("+1 415 555 0132 ")),
        Kind(name: "amounts", make: repeated("$1,234.56 ")),
        Kind(name: "dates", make: repeated("2024-01-02 ")),
        Kind(name: "quotes", make: repeated("\"'")),
        Kind(name: "brackets", make: repeated("((")),
        Kind(name: "seed words", make: repeated("abandon ability able about above absent ")),
        Kind(name: "capitals words", make: { size in Array(random("ABCDEFGHIJKLMNOPQRSTUVWXYZ", size * 5 / 6)).chunked(5).map { String($0) }.joined(separator: " ") }),
        Kind(name: "combining marks", make: { size in "e" + String(repeating: "\u{301}", count: size / 2) }),
        Kind(name: "Authorization: Bearer repeated", make: repeated("Authorization: Bearer ")),
        Kind(name: "ghp_ repeated", make: repeated("ghp_")),
        Kind(name: "sk_live_ repeated", make: repeated("sk_live_")),
        Kind(name: "IDENTIFIED BY ' repeated", make: repeated("IDENTIFIED BY '")),
        Kind(name: "PIN and digits repeated", make: repeated("PIN 1234 ")),
        Kind(name: "card numbers after labels", make: repeated("card number 4111 1111 1111 1111 ")),
        Kind(name: "IBANs", make: repeated("IBAN DE89 3704 0044 0532 0130 00 ")),
        Kind(name: "verification codes", make: repeated("verification code 123456 ")),
        Kind(name: "hex dump lines", make: repeated("00000010  48 65 6c 6c 6f 20 57 6f  72 6c 64 0a 00 00 00 00  |Hello World.....|\n")),
        Kind(name: "addresses with passwords", make: repeated("postgres://u:p4ss@h ")),
        Kind(name: "\"keyName\": \"key1\", repeated", make: repeated("\"keyName\": \"key1\", ")),
        Kind(name: "value ← the pw lines", make: repeated("Qx7!kp2Lm ← the pw\n")),
        Kind(name: "password for a.b@c repeated", make: repeated("password for a.b@c.d ")),
        Kind(name: "Password for (…): lines", make: repeated("Password for the (reset) user:\n")),
        Kind(name: "ID: and 19 digits repeated", make: repeated("Message ID: 6641868339028859773 ")),
        // The thirteenth round's look-ups: words shaped like passwords, a key's bytes as numbers,
        // groups of four under a key's name, an INSERT's columns, calls given literals, a
        // chpasswd list, keys in paths.
        Kind(name: "password-shaped words", make: repeated("Tq7#mZr2pLx ")),
        Kind(name: "numbers between commas after key", make: { size in "secret key: [" + String(repeating: "255,", count: max(1, size / 4 - 4)) + "1]" }),
        Kind(name: "groups of four under Recovery key", make: { size in
            "Recovery key\n" + Array(random(base64.filter { $0.isLetter || $0.isNumber }, size * 4 / 5)).chunked(4).map { String($0) }.joined(separator: " ")
        }),
        Kind(name: "INSERT INTO t (password, …) repeated", make: repeated("INSERT INTO t (password, a, b) VALUES ('x', 'y'")),
        Kind(name: "set_password(' repeated", make: repeated("set_password('")),
        Kind(name: "chpasswd: and user:pass lines", make: headed("chpasswd:\n  list: |\n", "    ines:Kq2mZt8vLx\n")),
        Kind(name: "/key/ repeated", make: repeated("/key/")),
        // (The twenty-first round's: gitleaks' curl rules read the rest of the line per `curl`.)
        Kind(name: "curl repeated", make: repeated("curl ")),
        Kind(name: "curl -b 'a=b; repeated", make: repeated("curl -b 'session=Xk2Lm9Qr7Tz4Vb8N; ")),
        Kind(name: "User/Pass lines", make: repeated("User ana\nPass Xk2Lm9Qr7\n")),
        Kind(name: "encryptedData: lines", make: repeated("encryptedData:\npassword: AgBy3i4OJSWK+PiTySYZZA9rO43cGDEq\n")),
        Kind(name: "echo '…' > pass repeated", make: repeated("echo 'Xk2Lm9Qr' > ~/.vault_pass ")),
        Kind(name: "command not found lines", make: repeated("$ Xk2#Lm9Qr\nbash: Xk2#Lm9Qr: command not found\n")),
        Kind(name: "ModHex runs", make: repeated("cccccclrnhbgfkdtuvjiehrcbnfvkjtlgdhe kbrnfdie-vtcjhlgu-")),
        Kind(name: "cat auth and user:pass lines", make: headed("$ cat ~/.config/deluge/auth\n", "ana:Rz8vKm2qTx:10\n")),
        Kind(name: "ACL SETUSER with rules", make: headed("ACL SETUSER ana", " +get ~k:*")),
        Kind(name: "ss:// pieces", make: repeated("ss://Y2hhY 2hhMjAt ")),
        Kind(name: "dig -y repeated", make: repeated("dig -y a:b ")),
        // (The twenty-third round's: credential headers, `*_AUTH`, a table's wide columns, a command that makes keys.)
        Kind(name: "X-…-Token: headers", make: repeated("-H 'X-Api-Token: Kq2mZt8vLx4Rb7Wc' ")),
        Kind(name: "Authorization: Token token= repeated", make: repeated("Authorization: Token token=")),
        Kind(name: "REDIS_AUTH= repeated", make: repeated("REDIS_AUTH=Kv7-Lm2qXz ")),
        Kind(name: "a table with a Password column", make: { size in
            "Service        Username     Password         Notes\n" + String(repeating: "Printer        scan         Vx7qLm2Tz9k      2nd floor\n", count: max(1, size / 56))
        }),
        Kind(name: "$ keys create lines", make: repeated("$ headscale preauthkeys create --user ana\n6f1c9e2a7b4d8053a1e4c7b9d2f60a3e\n")),
        // (The twenty-fourth round's: PHP variables, `-a user:pass`, `New value:` lines, a table's positional columns.)
        Kind(name: "$name = repeated", make: repeated("$wgSecretKey = ")),
        Kind(name: "-a user:pass repeated", make: repeated("-a ana:Xk2#Lm9Qr ")),
        Kind(name: "New value: lines", make: repeated("Password reset.\nNew value: Xk2#Lm9Qr\n")),
        Kind(name: "a table with a Token column", make: { size in
            "ID                 Description  Token                              User Name  Permissions\n"
                + String(repeating: "0c5f2a9e4b1d7c3a               Qz8vLm2kTx9WoR3EuF7H2STcW82RcayfJTbN==  ana        [read:orgs]\n", count: max(1, size / 100))
        }),
        // (The twenty-fifth round's: an element named for a key, maps of hosts to tokens, `createUser`
        // lines, a `Secret ID` beside an accessor, a table's token split in pieces.)
        Kind(name: "<machineKey with attributes", make: repeated("<machineKey validationKey=\"9F3A1C7E5B2D8046A1E3C5B7D9F20486\" ")),
        Kind(name: "a map of hosts to tokens", make: { size in
            "\"github-oauth\": {\n" + String(repeating: "    \"git.acme.io\": \"Wq3zLm8RtvK2xYp9Nc4Hd7Fg\",\n", count: max(1, size / 44))
        }),
        Kind(name: "createUser lines", make: repeated("createUser ana SHA \"Jk5tRw9Qmx\" AES \"Pz3vLm8Rtq\"\n")),
        Kind(name: "Secret ID beside Accessor ID", make: repeated("Accessor ID = 5b2c8e1f-3a4d-4e5f-8a9b-0c1d2e3f4a5b\nSecret ID = 7d3a9c1e-b4f2-4e6a-9c8d-1f3e5a7b9c02\n")),
        Kind(name: "a Token column split in pieces", make: { size in
            "ID Description Token User Name Permissions\n"
                + String(repeating: "0c5f2a9e4b1d7c3a Qz8vLm2kTx9 WoR3EuF7H2STcW82Rc ayfJTbN== ana [read:orgs]\n", count: max(1, size / 76))
        }),
        // (The twenty-sixth round's: irssi's `/connect`, lists of a key's bytes, account lines, a
        // commented legend over rows, `--auth=`.)
        Kind(name: "/connect lines", make: repeated("/connect -tls irc.libera.chat 6697 Vb7qLm2Xz9 ana\n")),
        Kind(name: "lists of a key's bytes", make: repeated("network_key: [51, 0, 126, 99, 189, 171, 99, 197, 7, 74, 174, 50]\n")),
        Kind(name: "account lines", make: repeated("ana:Wq3z!Lm8Rtv:19700:0:99999:7:::\n")),
        Kind(name: "a commented legend over rows", make: { size in
            "# client        server  secret              IP addresses\n" + String(repeating: "ana        *       \"Tz4pWq9LmR\"        *\n", count: max(1, size / 40))
        }),
        Kind(name: "--auth= repeated", make: repeated("--auth=Jk5tRw9Qmx ")),
        // (The twenty-seventh round's: cracked hashes, proxy links, PHP constants, found logins,
        // a device's keys, `configure set` pairs.)
        Kind(name: "cracked hash lines", make: headed("$ hashcat -m 0 hashes.txt --show\n", "5f4dcc3b5aa765d61d8327deb882cf99:Wq3z!Lm8Rtv\n")),
        Kind(name: "proxy links", make: repeated("trojan://Vb7qLm2Xz9@vpn.acme.io:443?security=tls#a\n")),
        Kind(name: "define() of salts", make: repeated("define( 'NONCE_SALT', 'Wq3z!Lm8Rtv%K2xYp9Nc4Hd7Fg' );\n")),
        Kind(name: "found logins", make: repeated("SMB 10.0.8.21 445 WS01 [+] ACME\\ana:Vb7qLm2Xz9 (Pwn3d!)\n")),
        Kind(name: "device keys", make: repeated("tacacs-server host 10.0.0.5 key 0 Vb7qLm2Xz9\n")),
        Kind(name: "configure set pairs", make: headed("$ tccli configure set", " secretKey Wq3zLm8RtvK2xYp9Nc4Hd7Fg")),
        Kind(name: "credential calls", make: repeated("WiFi.begin(\"HomeNet\", \"Vb7qLm2Xz9\"); new PDO($d, 'a', '")),
        Kind(name: "quoted Authorization values", make: repeated("@{Authorization = \"Bearer Vb7qLm2Xz9 ")),
        Kind(name: "wrapped option names", make: repeated(" --auth-passwo\nrd Vb7qLm2Xz9")),
        Kind(name: "slash options and base64 keys", make: repeated("/Action:a /pass Vb7qLm2Xz9 base64: Vb7q Lm2Xz9\n")),
        // (The twenty-ninth round's: near copies of a password, T-SQL's EXEC, NTP's keys, Exim's
        // passwd.client lines, quoted user lines, Bundler's and Postfix's pairs.)
        Kind(name: "near copies of a password", make: headed("$ mysql --password='Vb7qLm2Xz9Kw'\n", "Vb7qLm2Xz9Kx Vb7qLm2X9Kw Vb7qLm2Xz9K ")),
        Kind(name: "EXEC of credential calls", make: repeated("EXEC sp_addlogin 'a', 'Vb7qLm2Xz9', 'b', ")),
        Kind(name: "NTP keys and Exim lines", make: headed("$ cat /etc/ntp.keys passwd.client userlist\n", "1 MD5 Vb7qLm2Xz9\n\"a\" \"Vb7qLm2Xz9\"\na:b: Vb7q Lm2Xz9\n")),
        Kind(name: "Bundler and Postfix pairs", make: repeated("bundle config set a.io u:Vb7qLm2Xz9 password_maps = static:u:Vb7qLm2Xz9 ")),
        // (The thirtieth round's: a password's rest on the next line, a directive's value split
        // once beside an exported name split twice, a user's name split before its password.)
        Kind(name: "wrapped password rests", make: repeated("set system login user ana authentication plaintext-password Vb7q\nLm2Xz9_K\n")),
        Kind(name: "split directives, exported words", make: repeated("bindpw -Vb7qLm2 Xz9K\nexport OP SESSION acme=\"Vb7qLm2Xz9Kw4NcB\"\n")),
        Kind(name: "users split before a password", make: repeated("drush user:password svc sync \"Vb7qLm2Xz9\" ")),
        // (The thirty-first round's: a long command that ends with an option, its value on the next
        // line; a key's wrapped rest that ends in a glyph; a `--user` pair after a doubled quote.)
        Kind(name: "options wrapped before names", make: repeated("$ a register --token-file /run/secrets/r --instance https://git.acme.io --name\nrunner-01\n")),
        Kind(name: "wrapped keys ending in a glyph", make: repeated("--api-key sk_live_Vb7qLm2Xz9Kw4NcBdHsFgJyTaKqWmPZx3nVb8rT1cYdEfGh\nVb7qLm2Xz9Kw4NcBdHsF&\n")),
        Kind(name: "user pairs after doubled quotes", make: repeated("--user \u{2018}'ana@acme.io:Vb7qLm2Xz9' ")),
        // (The thirty-second round's: vsftpd's virtual users, Exim's hosts split at a dot, a call's
        // password closed by a comma, a key's rest before the command's next option.)
        Kind(name: "virtual users and Exim hosts", make: headed("$ cat /etc/vsftpd/vusers.txt passwd.client\n", "ana\nVb7qLm2Xz9\nsmtp.acme. io:ops:Vb7qLm2Xz9\n")),
        Kind(name: "call passwords closed by commas", make: repeated("Net::SMTP.start('a', 587, 'b', 'c', 'Vb7qLm2Xz9, :login) ")),
        Kind(name: "key rests before options", make: repeated("$ a register --no-interactive --instance https://git.acme.io --token Vb7qLm2Xz9Kw4NcBdHsFgJyTa\nKqWmPZx3nV --name r\n")),
        // (The thirty-third round's: a user's host split at a dot, cracked hashes whose `$` OCR read
        // as `S`, stored hashes with a `§` for a `$`.)
        Kind(name: "split user hosts and S-hashes", make: headed("$ hashcat --show\n", "--user \u{2018}a@acme. io:Vb7qLm2Xz9' \nSkrb5tgs$23$*a$B$c*$0f1e2d3c4b5a6978$...ab: Vb7qLm2Xz9\n")),
        Kind(name: "stored hashes with a section sign", make: repeated("encrypted-password \"$6$Kq2mTp9R\u{00A7}.x|Zk8rWq2mTpL5xYv3NcBdHsFgJyTaQe7uIoPzXc\"\n")),
        // (Providers' keys one after another in one run: each match's provider is named in its
        // own window, not by searching the whole run again.)
        Kind(name: "provider keys in one run", make: repeated("AKIAQYLPMN5HFIQR7ABC/")),
        // (The thirty-fifth round's: Oracle logins with an `@` inside the password, pre-shared keys
        // split after a word and a `!`, wrapped password rests that end in `#`.)
        Kind(name: "Oracle logins with @ inside", make: repeated("rman target sys/Vb7q@Lm2X@z9K@ORCL@x@y ")),
        Kind(name: "pre-shared keys split once", make: repeated("Pre-Shared Key: APL! pf7_f\n")),
        Kind(name: "wrapped rests ending in #", make: repeated("set snmp v3 usm local-engine user a authentication-password Vb7q!?m\n#Lm2Xz9K#\n")),
        // (And the same round's: rows of NTP keys, curl's users split beside a `_`, keys' wrapped
        // rests that OCR split.)
        Kind(name: "rows of NTP keys", make: headed("$ cat /etc/ntp.keys\n", "1 SHAT 4a7c2e9f10b3d58e6f2a9c1b7d3e5f8a0c4d2e6f91\n2 MD5 Vb7qLm2Xz9Kw4NcB\n")),
        Kind(name: "user names split beside _", make: repeated("--user \u{2018}svc _sync@acme.io:Vb7qLm2Xz9' ")),
        Kind(name: "split key rests", make: repeated("--api-key sk_test_Vb7qLm2Xz9Kw4NcBdHsFgJyTaKqWmPZx3nVb8rT1cYdEfGh5LmNoPq2RsTuVw4\nXyZ a6BcDe8FgHi9Jk\n")),
        // (The thirty-sixth round's: listed passwords of random letters.)
        Kind(name: "listed random letters", make: headed("$ sudo cat /etc/rsyncd.secrets\n", "ops: ifQRBSRXbOXULO\n")),
        // (The thirty-seventh round's: tokens judged with their wrapped rests, user pairs closed by
        // two quotes, calls whose name OCR split at its `_`, dotenv keys with an `@` inside.)
        Kind(name: "tokens with wrapped rests", make: repeated("$ a register --no-interactive --instance https://git.acme.io --token VbqLmXzKwNcBdHsFgJy\nTaKqWmPZ7x3nVb8rT1cY --name r\n")),
        Kind(name: "pairs closed by two quotes", make: repeated("--user 'a@acme.io:Vb7qLm2Xz9'\u{2019} ")),
        Kind(name: "calls split at their _", make: repeated("client.username pw_set(\"ops\", \"Vb7qLm2Xz9\") ")),
        Kind(name: "dotenv keys with @ inside", make: repeated("dotenv: //:key_7c1d9e@a4b2f8e6d0c3b5a7f9e1d2c4b6a8f0e2 a1f3adotenv.org/vault ")),
        // (The thirty-eighth round's: literals OCR left open or unopened, listed passwords split after
        // their first character, join addresses with an `@` for a `0`, constants whose `;` OCR read twice.)
        Kind(name: "literals left open", make: repeated("new PDO($dsn, 'ops', '&Vb7qLm2Xz9); Net::SMTP.start('a', 587, 'b', 'c', Vb7q#*Lm2Xz9', :login) ")),
        Kind(name: "listed values split once", make: headed("$ sudo cat /etc/rsyncd.secrets\n", "ops: ! Vb7qLm2Xz9Kw\n")),
        Kind(name: "join addresses with @", make: repeated("microk8s join 10.@.8.21:25000/7261d7c9522d6cc28bc59fdeIefe241d/d9419F139FC9\n")),
        Kind(name: "constants closed twice", make: repeated("define( 'NONCE_SALT', '*:/F}N,PJ)b( Fo_|[M/KA.uTR' ) 5;\n")),
        // (The thirty-ninth round's: application keys with a bracket for a letter, LSA headings with an
        // `x` for the `*`, cracked hashes after glyphs outside ASCII.)
        Kind(name: "keys with brackets", make: repeated("$ php artisan key:generate --show\nbase64: tj]XE3YYVOvGiGs9K9Lz11BX2LoOcvYHhVd+X0g8n/W8=\n")),
        Kind(name: "LSA headings with x", make: headed("$ impacket-secretsdump ACME/admin@10.0.8.21\n", "[x] DefaultPassword\n(Unknown User) : Vb7qLm2Xz9_K\n")),
        Kind(name: "hashes after glyphs", make: headed("$ hashcat -m 0 hashes.txt --show\n", "\u{20AC}\u{20AC}7313069441c3451d16a5d9b9972d05: s9H1eAvuW1Ig\n")),
        // (The fortieth round's: literals opened by a glyph and split once, join tokens split many
        // times, printed keys whose tail OCR split with a digit read as a letter.)
        Kind(name: "literals opened by a glyph", make: repeated("new PDO($dsn, \u{2018}admin\u{2019}, **9YS2Aos6CjeY cg\u{2019}); ")),
        Kind(name: "join tokens split often", make: repeated("microk8s join 10.0.8.21:25000/25d082da4ec581 8df Of 460f 3c90a8dcc/99379al Fd276\n")),
        Kind(name: "printed keys with o tails", make: headed("$ sudo cat /etc/stunnel/psk.txt\n", "client1:a20b8f9bf62757aba5329676b451f boc\n")),
        // (The forty-first round's: Exim's client lines whose pattern OCR read as `* ` and whose user
        // it split after a dot.)
        Kind(name: "Exim lines with split users", make: headed("$ sudo cat /etc/exim4/passwd.client\n", "* mail.acme.io: lena@acme. io: Tq8LmZx2RvN4\n")),
        // (The forty-second round's: base64 keys whose padded tail OCR split off, cracked hashes
        // with a `5` read as `S`, short quoted passwords after a user's flag, SHA-crypt hashes whose
        // two first `$` OCR read as `S`.)
        Kind(name: "base64 tails with padding", make: repeated("secret: EHN+A6sTa9abhDWo/rr6YDYvspyvdKEABXms /X6w1 /w= ")),
        Kind(name: "hashes with S for 5", make: headed("$ hashcat -m 0 hashes.txt --show\n", "7509e844e91accSbf1fef20a21011a08: *iohoe5p9H\n")),
        Kind(name: "short passwords after users", make: repeated("mysql -u svc_sync -p 'QwU4k_8' ")),
        Kind(name: "printed passwords split after a symbol", make: repeated("$ az keyvault secret show --vault-name acme-kv --name db-password --query value -o tsv\nusE18T! v6rGY*\n")),
        Kind(name: "hashes with S for both $", make: repeated("encrypted-password \"S6SMQBdFOWfSJbDv3hP2zB7c0jjGHM..gGVgIB5ErUiod1dCOt8sWQLgMRNYCd4v7REUNV8TuzRX2Q72CrwPHm4TWopdvJQs\" ")),
        // (The forty-fourth round's: PgBouncer's file name read with a letter more, printed passwords
        // split before a `+`, cracked hashes with `0` read as `Q` and `b` as `h`.)
        Kind(name: "userlists with a misread name", make: headed("$ sudo cat /etc/pgbouncer/userLlist.txt\n", "\"ci\" \"Vb8Nc3WdTz\"\n")),
        Kind(name: "printed passwords split before a plus", make: repeated("$ az keyvault secret show --vault-name acme-kv --name db-password --query value -o tsv\nsqwTk Zp9v+R4m\n")),
        Kind(name: "hashes with Q for 0 and h for b", make: headed("$ hashcat -m 0 hashes.txt --show\n", "4c1d9e7a2bQ83e6a5f9c1b7d2e4 8fcah: Tq8LmZx2Rv\n")),
        // (The forty-fifth round's: settings split before a `-`, Go's DSNs with a space before the parenthesis.)
        Kind(name: "settings split before a dash", make: repeated("signing.password=Qm7vX -kp4281\n")),
        Kind(name: "DSNs spaced before the parenthesis", make: repeated("sql.Open(\"mysql\", \"app: Tq8L@m2Xz@tcp (db-01.acme.io:3306)/shop\") ")),
        // (The forty-sixth round's: password options that end a wide line, proxy links split.)
        Kind(name: "password options ending lines", make: repeated("$ swaks --to bo@acme.io --server smtp.acme.io:587 --tls --auth LOGIN --auth-user ops@acme.io --auth-password\n\"Qm7+vXk2Lp9'\n")),
        Kind(name: "proxy links split", make: repeated("hysteria2: // QMXTKZLVA! Rt7Kavpn.acme.io:8443/?sni=vpn.acme.io ")),
        // (Near leaks: passwords after a `!`, listed passwords of random letters, directives split
        // after a scrap; and addresses whose query follows the port.)
        Kind(name: "passwords after a bang", make: repeated("password: !QwkzHTTRmp\n")),
        Kind(name: "listed passwords of letters", make: headed("$ sudo cat /etc/rsyncd.secrets\n", "ops: qTRXWDLmhKe\n")),
        Kind(name: "directives split after a scrap", make: repeated("bindpw 7! kQwm2xRtLp\n")),
        Kind(name: "ports before a query", make: repeated("https://vpn.acme.io:8443?sni=vpn.acme.io&insecure=0 ")),
        // (The forty-seventh round's: a proxy's password with a curly quote inside, digests split at their `/`.)
        Kind(name: "curly quotes inside passwords", make: repeated("--proxy-auth ops:&Kq\u{201C}WZ7rLm2 ")),
        Kind(name: "digests split at a slash", make: repeated("'digest,'admin: Qm7vXk2Lp9RtZa4Wq8 / Bn5cHs3Y=\n")),
        // (The forty-eighth round's: quoted `-p` values after a space, directives split after a
        // symbol, settings split twice after a `-`.)
        Kind(name: "quoted flags after a space", make: repeated("add-user.sh -u ana -p ' Qx7mLz@2RtV9' -g admin ")),
        Kind(name: "directives split after a symbol", make: repeated("bindpw 7-kQwm2xRt! lpam\n")),
        Kind(name: "settings split twice", make: repeated("Passphrase=Qm7vX* -kpLt - a9Z2\n")),
        // (The forty-ninth round's: NTP keys split into many pieces, quoted flags split after digits,
        // DSNs with a space before the `@`, hashes with `#` for `f`.)
        Kind(name: "NTP keys in many pieces", make: headed("$ sudo cat /etc/chrony.keys\n", "1 SHA256 HEX: 4A1B2C3D4E5F6A7B @8C9D 0E1F2A3B4C5D6E7F 8A9B0C1 D2E 3F4A5B 6 C7D8E9 F0A1\n")),
        Kind(name: "quoted flags split after digits", make: repeated("add-user.sh -u ana -p '73 kqLmZx&' -g admin ")),
        Kind(name: "DSNs spaced before the at", make: repeated("sql.Open(\"mysql\", \"ops:Qx7mLz%Rt9! @tcp(db-01.internal:3306)/shop\") ")),
        Kind(name: "hashes with # for f", make: headed("$ hashcat -m 0 hashes.txt --show\n", "4c#1d9e7a2b8f03e6a5f9c1b7d2e4a8f0: Tq8LmZx2Rv\n")),
        Kind(name: "split tokens wrapped", make: repeated("$ forgejo-runner register --instance https://git.acme.io/a/b/c --token kWzRpLmTxVbQ hYdNc\n7Tg3Jk9Pq2Wx8Zr4Lm5Nb6V --name r\n")),
        Kind(name: "wrapped rests of random letters", make: repeated("$ hatch publish -u __token__ -a pypi-AgEIcHlwaS5vcmcwQk7TnRmx2Vd9LpZb4WcHs8Jf\nQRWf k dTCXPmLHZ\n")),
        Kind(name: "unopened literals with a quote inside", make: repeated("1> EXEC sp_addlogin \u{2018}reporting\u{2019}, QwkTLm7\u{201C}zRb\u{2019}, \u{2018}shop\u{2019};\n")),
        Kind(name: "scraps wrapped before a split rest", make: repeated("ana@srx# set snmp v3 usm local-engine user monitor authentication-sha authentication-password Qk\nWZR QkeT%LmOvB\n")),
        Kind(name: "tool passwords of random letters", make: repeated("pvk2pfx -pvk acme.pvk -pi QQRXWTLkz -spc acme.spc -po QERXWTLkz ")),
        Kind(name: "crypt hashes read S6S$", make: repeated("encrypted-password \"S6S$Kq2mTp9R$x.QRTVmLz7Wb392Z0k/paaB7kZu8JPrYdg6c39DJJMhdx\n")),
        Kind(name: "literals closed after a dropped quote", make: repeated("EXEC sp_addlogin reporting\u{2019}, \u{2018}kRtWmQzLpx\u{2019}, \u{2018}shop\u{2019}, ")),
        Kind(name: "unquoted call arguments", make: repeated("Net::SMTP.start('smtp.acme.io', 587, 'acme.io', 'svc_sync', QmwRtz-KXLPuV7;, :login) ")),
        Kind(name: "Windows options starting lines", make: repeated("C:\\> SqlPackage /Action:Export /SourceUser:svc_sync\n/SourcePassword:QmwkTzLRpv /TargetFile:shop.bacpac\n")),
        Kind(name: "small-letter keys and vowelless scraps", make: repeated("$ mmctl auth login https://chat.acme.io --name acme --access-token k7wq2rzd9mQxpt3b8v hcs jdzq\n")),
        Kind(name: "option tokens split after letters", make: repeated("$ mmctl auth login --access-token kwqtrzdm Lpxqtrrwixz6vhmbog\n")),
        Kind(name: "crypt hashes with glyphs", make: repeated("encrypted-password \"$6$kQ7WJJoSArKPJG.8Q4.23HgBa/oR.ICHujA7H8KK704Xe9m0A XHOD/i.v86VLf\u{00A3}8A\n")),
        Kind(name: "keys with a glued comma before scraps", make: repeated("$ stripe login --api-key sk_test_Q7wkRtzLm2PxVb9NcYd4HfGj8KsTq3WrXe6ZuAoBi, p 3kTwQzRm 8vLpXn2B\n")),
        Kind(name: "closing quotes read as commas", make: repeated("Net::SMTP.start(\u{2018}smtp.acme.io,, 587, 'acme.io\u{2019}, \u{2018}lena\u{2019}, 'Qm7kRwTz2x, :login) ")),
        Kind(name: "application keys with specks", make: repeated("base64: Qm7kR.wTz2xLpV+bN9cYd4HfGj8KsTq3 WrXe6ZuAoBiPQ=\n")),
        Kind(name: "NTP keys of SHA]", make: headed("$ sudo cat /etc/ntp.keys\n", "1 SHA] 3c9e5a1f7b0d24e8a6c2f9b13d57e0a4c8f2b6d1\n")),
        Kind(name: "Windows values wrapped and split", make: repeated("C:\\> SqlPackage /Action:Export /SourcePassword:Qm7\nW _kR#tz9 /TargetFile:shop.bacpac\n")),
        Kind(name: "hexadecimal keys split after an at", make: repeated("dotenv://:key_3c9e5a1f7b@d24e8a6c 2f9b13d57e0a4c8f2b6d13c9e5a1f7b0d2 ")),
        Kind(name: "quotes read as single commas", make: repeated("Net::SMTPsstart('a.io', 587, 'acme.io, 'lena', 'Qm7kRwTz2x, :login) ")),
        Kind(name: "small-letter keys with a slash", make: repeated("$ mmctl auth login --access-token k6/wq2rzd9mqxpt3b8v wtkzqlmp\n")),
        Kind(name: "base64 holding a label", make: repeated("\"SCRAM-SHA-256$4096:k7QwLm2RtZx9VbNpHcGrnPw==$Tq4VzLm8XrWp2Kc+9Bd=:Lm2Xz9Kw=\"\n")),
        Kind(name: "VLESS ids spaced at their dashes", make: repeated("vless://3c9e5a1f - 7b0 - d24e - 8a6c - 2f Q9b13d57e0@vpn. acme. io: 443?encryption=none#a\n")),
        Kind(name: "constants without their opening quote", make: repeated("define( 'NONCE_SALT', /Qx7{Lm]zR2t%vW9+kP4)nJ8$bY6~hT{{' ' ' ' ' );\n")),
        Kind(name: "base64 with specks after AUTH PLAIN", make: repeated("AUTH PLAIN AGxl.bmFA.YWNt.ZS5p.bwBR.bTdr.UndU.ejJ4.THBW.Yk45 a.b.c.d.e.f.g\n")),
        Kind(name: "directives of letters only", make: repeated("remote_password KVSTRMQDbnwzKVSTRMQDbnwzKVSTRMQDbnwz\n")),
        Kind(name: "key names spaced at their underscores", make: repeated("export A _B _C _D _E _Key=\"5b1e9c3a7d2f48e6a0c4b8d1f3e7a9c2b6d0f\" A _B _Key= a\n")),
        Kind(name: "user pairs after a scrap", make: repeated("--proxy-auth tomas:k m7Qx2vR9T --user a:b c1 -u a:b c1d1 10.0.8.21\n")),
        Kind(name: "long keys with split rests", make: repeated("--api-key sk_test_Qx7Lm2Rt9VbNpHcGrnPwKz4TsYd8EfJh3AqWm6ZuXo1BiC5DgFkLn0MrSe AWq jz omtk 5 HRLpwu8TyVmZc a b c d e f g\n")),
        Kind(name: "rows of dots read as letters", make: repeated("Pre-Shared Key: eolstslotelstsoltoleio\n")),
        Kind(name: "split hashes of symbol words", make: repeated("{SHA512-CRYPT }$6$Qw7R$Lm9Qx. K.T4&mW x#y#z#w# a#b#c#d# e#f#g#h# i#j#k#l#\n")),
        Kind(name: "directive names spaced at their underscores", make: repeated("remote password Wkrp_ 7mNq3x9 ab password a_ b1 cd pass x_ y2\n")),
        Kind(name: "keys with scraps over a rest", make: repeated("--api-key sk_test_Rq4WmZ7TxL2pKvN9cBd3HsJf6GyQ8aEu1MnXo5Vi F27 kq8ZLm wj 4 TbNc edk\nRM7QDPwTZ a\n")),
        Kind(name: "odd-cased words split after a symbol", make: repeated("-setairportnetwork en0 CafeNet QRTu! 7Kp?m WMLi! a QRTu! b? QRTu! c\n")),
        Kind(name: "base64 keys with padded rests", make: repeated("secret: /Qm7Rt2vXk9LpWz4Nb8HcJ5sYd3Fg6 Kel mWpqaz Lm2z= Kel mWpqaz Lm2z= a=\n")),
        Kind(name: "DSNs with a bracket after the at", make: repeated("\"svc_ops:Qz+%K !! RTX4MNPQa@)tcp(db a:b c d e@(tcp a:b@|unix (\n")),
        Kind(name: "SCRAM verifiers with split salts", make: repeated("\"SCRAM-SHA-256$4096 : Kq7w 2vPw=$Zm4Rk8TqWx2P=: pQ8WnRTK 4V$1:aPw=$b:c Pw=$\n")),
        Kind(name: "literals closed by two semicolons", make: repeated("Net::SMTP.start('a', 1, 'b', 'c', 'qwx_RTM7K2Pa;;, ;; ;;, 'd;;, :login)\n")),
        Kind(name: "found logins split after a scrap", make: repeated("[+] ACME\\ana:Tq WmPx7KzR4b (Pwn3d!) [+] A\\b:c defg [+] A\\b:c\n")),
        Kind(name: "proxy links with a host's glyph after the at", make: repeated("hysteria2: //jeQ@R_MQyTgrk*javpn.acme.io:8443/?sni=a hy2://a@b_c hysteria2://q@x*y.z trojan://k@[\n")),
        Kind(name: "AUTH PLAIN with glyphs outside ASCII", make: repeated("AUTH PLAIN AGxlbmEAUXc3\u{00A9}ZkxtUjJ4 a\u{00A9} b\u{00AE} c\u{00A3} d\u{00E9} e\u{00A7} f\u{00A9}\n")),
        Kind(name: "credential files named after a spaced dot", make: headed("$ sudo cat /etc/rsyncd. secrets\n", "ana: Kq7?WmzTR4pLx\nsync: PLmRT2xQWz 8Vz\n$ cat a. secrets\n")),
        Kind(name: "VLESS ids with an early at", make: repeated("vless: //@f3a91c2e-7b4d-4e8a-9c1f-2d6b8e0a4f7cQvpn.a.b vless://4c2@91e8 vless://@ vless://a@b@c@d@e\n")),
        Kind(name: "Bundler hosts with commas and spaced dots", make: repeated("$ bundle config set --global gems.acme,io tomas:N7LFookrCk1Y&fH a,b,c. d e:f g,h. i j:k\n")),
        Kind(name: "passwords split at every symbol", make: repeated("spring.mail.password=Ft ! -Gf! aoL%RJO password=a ! b! c password: Ft ! ! ! ! ! !\n")),
        Kind(name: "listed keys split three times", make: headed("$ sudo cat /etc/stunnel/psk. txt\n", "client1: f f480f fc561\u{00A2}394973c7160335d6c3a5\na: b c d e\n")),
        Kind(name: "dot rows read as one letter again", make: repeated("Pre-Shared Key: werccccccses password: aaaaabbbbbccccc\n")),
        Kind(name: "split hashes starting their lines", make: repeated("$6$hInQhiuxXcViL563$hqEU3Fci69X008dW2ATa@L 8Lone5SXuv7hnFGDMGa@hd1Q. CuJKI .01428QvZDWOqc9W7Idjel1TacrY9vyDtTm $6$a$b c d\n")),
        Kind(name: "wrapped option tokens with an at", make: repeated("$ forgejo-runner register --instance https://git.acme.io/a/b/c/d/e/f --token gLshEQ65a4hsY86\nxy@AkGqiwSp2XqOa1UMJZY3tP --name runner-@1 --token a@b@c@d@e\n")),
        Kind(name: "user lists with a doubled quote", make: headed("$ sudo cat /etc/pgbouncer/userlist.txt\n", "\"svc_sync\"\u{201D} \"HN4DWvNGf79k6\u{201D}\" \"a\"\u{201D}\u{201D} \"b\n")),
        Kind(name: "printed secrets split after letters", make: repeated("$ pass show web/db\nhyct ?rkiV8RIYp\n$ pass show a\nabc ?d efgh\n$ op read b\nwxyz x9 ? q\n")),
        Kind(name: "names glued to values in a secrets file", make: headed("$ sudo cat /etc/rsyncd.secrets\n", "ana:KtRw_pmzo a:b:c x:y z@a.b-c:dEf9gh q: r:s:t\n")),
        Kind(name: "Windows passwords wrapped after the colon", make: repeated("C:\\> SqlPackage /Action:Export /SourceServerName:db01 /SourceUser:lena /SourcePassword:\nB%S14kaxfM3TU4 /a:\n/b: /pass:\n/c\n")),
        Kind(name: "application keys with glyphs read twice", make: repeated("base64: Kq7RmTzX2wLLpNvB9HcYdFsJ4GuQa+/EkMoxXXt5Z rP we3= base64:a b c d e f\n")),
        Kind(name: "crypt hashes with bars after S6S", make: repeated("encrypted-password \"S6SQpRtZmWkaSXyTvBnLmKqPwErTyUiOpAsDfGhJk|LzXc|||||||||||||||||||||||||||||\" \"S6S|\n")),
        Kind(name: "long keys with a tail of scraps", make: repeated("sk_test_Kq7RmTzX2wLpNvB9HcYdFsJ4GuQa8EkMoXt5ZrPwe3mLbV7 p QWRTZy ZMAB4 k iRaTm5 a b c d e f g h i j k\n")),
        Kind(name: "password options split after an underscore", make: repeated("C:\\> pvk2pfx -pvk a.pvk -pi wqz_ 5Kmt+Rx2 -po a_ b_ c_ d_ -spc a.spc\n")),
        Kind(name: "keys with ats before a dot", make: repeated("| token | npm_r$Kq@TmzXwLpNvB9HcYdFsJ4GuQaPW@Vhzzrk. | a@b. c@d. e@f. |\n")),
        Kind(name: "kinds of key misread by a letter", make: repeated("encryptionkKey: ae7689447ab57a683536c4499d863386 sharedkKey: a checkKey: b\n")),
        Kind(name: "Windows values split before options", make: repeated("C:\\> SqlPackage /Action:Export /SourceUser:ana /SourcePassword:QWrt ZkmpTvXbHN4c /TargetFile:a /pass:a b c d e f /x:\n")),
        Kind(name: "Impacket targets with a space before the at", make: repeated("$ impacket-psexec 'ACME/root:hUsem!9Wt?%-C& @10.0.8.21' a:b @c d:e @f g:h @\n")),
        Kind(name: "addresses with a host part past 63", make: repeated("dotenv: //:key_7f@e9152a0c4b8d61f3e27a9c05d4b1e8f6a3c72d09e5b14f8a6c3d27e90b5f1a4cedotenv. org/v a: //:b@cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc.d\n")),
        Kind(name: "Windows values opened by a slash glyph", make: repeated("C:\\> SqlPackage /Action:Export /SourceUser:ana /SourcePassword:/)Xa?#1 vfsWnOW /TargetFile:a /pass:/) /) /) /x:\n")),
        Kind(name: "call passwords closed by a bracket", make: repeated("$db = new PDO(Sdsn, 'tomas', 'PFKUBcY-VOh-FjE}); f('a', 'b', 'c}, 'd]) PDO('x', 'y', 'z})\n")),
        Kind(name: "wrapped key rests of split letters", make: repeated("$ stripe login --api-key sk_test_f22dFIYCD8pNMLTF0DaJWTjzMeyot57O0c9KCyBB9wdWYkuLj73Uedy83m2UcOI6wtaogjL6kI\nHbqwZRtmoxe vkNW\nWelcome AnaLopez ToAll\n")),
        Kind(name: "Impacket targets split twice", make: repeated("$ impacket-psexec 'ACME/deploy:HIoyznSb ! DkW+MA9Q10.0.8.21' a:b c d e f 1.2.3.4' g:h ! i ! j@k\n")),
        Kind(name: "directive passwords split twice", make: repeated("bindpw ! IEsLi+n! ooAbY4\nremote_password kothq! jH77T\nbindpw a! b! c\nrequirepass ! ! !\n")),
        Kind(name: "DSNs with a letter for the at", make: repeated("sql.Open(\"mysql\", \"ops:&3HWp94-Eudtcp(db-03:3306)/shop\") a:b:c:d:eotcp a:qqqqqqqqqqqqqqqqqtcp tcp(\n")),
        Kind(name: "key rests split often on their line", make: repeated("--api-key sk_test_vr7BJkyVxPMyrQxqOBk05m7ASDIw9QiprqZy1O0xPRDy149 lwbeal zs j E9BOQKieyIvJ p80hMacktQxqbnP j tXKRKLKFo1zD7ILu a b c d e f g h\n")),
        Kind(name: "passwords split after a scrap into scraps", make: repeated("spring.mail. password=p%f ewt 8W+vv+! X\npassword=a%b c d e f\npw: x1 a b c d e\n@passwd = @pw, @x = 'y';\n")),
        Kind(name: "user lists and plain logins with specks", make: repeated("pgbouncer userlist\n\"svc sync x\" \"*UnzQp6ATK\"\n\"a b c d\" \"e\"\nAUTH PLAIN AGFkbWLUQGF j bwUu.\nAUTH PLAIN a b c d e f g h.,\n")),
        Kind(name: "address keys split into scraps", make: repeated("dotenv://:key_c8ffe3e324718260c5d9fe eaf 578836 7ad60d36 a b c d e f g h --proxy-auth a:b\"c\"d\"e\" x://:abcdef123456789 a 1 b 2 c\n")),
        Kind(name: "address keys split after a misread at", make: repeated("dotenv: //: key_4888d2032dcaf 25b1@ba1 9c828e6 fbf 8df 8ee29e86337 4b@dotenv. org a1@b2 c d 3e@f4 g h 5i@j6\n")),
        Kind(name: "salts opened by a bracket, keys split once", make: repeated("define( '\"NONCE_SALT, )PK3V&1*j=nJs%#E[P)+e>~2s+/L7k$ ) ) ) );\nnetsh wlan set hostednetwork key=Gi&! bnhqitHCOxhj\nhostednetwork key=a b\n")),
        Kind(name: "DSNs split four times, vault values after a scrap", make: repeated("sql.Open(\"mysql\", \"ci:4Y7cHG91m%- - - 9AH@tcp(db-03:3306)/s\") a: b c d e f@tcp( x: - - - - - - @tcp(\n$ az keyvault secret show --name db-password\nIni kgEWJ83iGaFN a\n")),
        Kind(name: "split values between options", make: repeated("C:\\> pvk2pfx -pvk a.pvk -po Hbz! Tq7*mW -pi a! b! c! d! -po x y z -po - - -po\n")),
        Kind(name: "users split before their at, camel rests", make: repeated("$ curl --user ‘svc sync@acme.io:kUhBSxBy57' a b@ c d@ e f@ -u g h@\n$ az keyvault secret show --vault-name acme-kv --name db-password --query value -o tsv\nnxHKvs fd3XoDU5M0 aB\n")),
        Kind(name: "dashed Windows values, round bullets", make: repeated("C:\\> SqlPackage /Action:Export /SourcePassword: --Yp2lIBE /TargetFile:a /p:--- /p:-- - /x:\nPre-Shared Key: SouogobGo00dGD oooooooooo\n")),
        Kind(name: "doubled closing quotes, bearers' letters", make: repeated("Net::SMTP.start(‘a', 1, ‘'b’, ‘c’, I4BBw_4VFmWgmiU'’, ''''', :login) x'’'’ ,'’\n@{Authorization = \"Bearer fnqGl\nEEhUGiIOPuvWBYnDRAwPnfailrd\"} Authorization: Bearer AbCdEfGhIjKlMnOpQrStUv Bearer Bearer\n")),
        Kind(name: "oddly cased first pieces, exported rests", make: repeated("$ az keyvault secret show --name db-password\nVAMt j Bm-60XhZF _ a b\nexport OP SESSION _acme=\"x\" export A B C D _e=\nDBDS00GOOGOG8B8B\n72300d36cC71729646h8bfe743f 9aaeG3 : 3*KP! 1aPg7 GGGGGGGGGGGGGGGG\n")),
        Kind(name: "join tokens with a glyph read as a slash", make: repeated("microk8s join 10.0.8.21:25000/ea52a84fa69acdb/23150e842ecafc75/15317e8e1017/a/b/c/d/e/f/g/h ///////// k8s join a:1/b c d/e/f\n")),
        Kind(name: "spaced tcp in DSNs, cues of fixes", make: repeated("sql.Open(\"mysql\", \"a :Ulpo2LEbGAe8k@t cp(db:3306)/s\") fix(a: b c d e f) mix(x:y) t c p( u n i x( a:b@t c p (\n")),
        Kind(name: "wrapped rests ending in a prompt's mark", make: repeated("[edit]\nana@srx# set snmp v3 usm local-engine user monitor authentication-sha authentication-password 30W-T\n1VivKfKJ# a# b# c# d@e# f(g)# h#\n")),
        Kind(name: "quoted settings, encoded device passwords", make: repeated("$ curl -H 'x-functions-key: Nknp1p2cyYeiZupPgaYUZ' -H 'a: b' -H \"x-a-key: c d e f\" '\n[HUAWEI-aaa] local-user a password irreversible-cipher Tz4m Qp8s\nswitch# password manager user-name a plaintext b c\n")),
        Kind(name: "found accounts, digit tokens, split names", make: repeated("|     ana: Xq2mLp7vRk4t - Valid credentials a:b - Valid credentials\nSuper user authentication token: 83051729466019 a token: 1\nDBPasswor d=Tm4BaQC817 a b c d=e isql -v a b c d\n")),
        Kind(name: "dashed values after a user's -p", make: repeated("$ podman login -u ci -p -kwr_7nQZT quay.io -u a -p -b -u c -p -d1e2f3g4h5 -p -x -u ci -p -h db-03\n")),
        Kind(name: "wrapped names, wrapped hashes, split quotes", make: repeated("[2026-11-20 09:14:02,118] INFO - jetbrains.buildServer.SERVER - Super user authentication toke\nn: 6229 a b\nuser ops password $6$Qw7R$Lm.K/T4mW\nKq7 $CFG-dbpass =‘ \"a b';\n")),
        Kind(name: "found logins, hashing commands, spaced paths", make: repeated("2026/11/20 > [+] VALID LOGIN: a@acme.io:Xv4m Qz7 a :b - Valid credentials\n$ slappasswd -h {SSHA} -s a -s\nDBI—connect(\"a\", \"b\", \"c Credentials: :new(\"a” . to_owned(), \"b” . \n")),
        Kind(name: "provider tokens split before dashes, quotes of the next argument", make: repeated("$ contentful login --management-token CFPAT-8p5r -a - b -c token-oy4wx:rg8 a b c -d\n$ hdbsql -u SYSTEM -p “Ny99 \"a \"b \"c “d \"e st.secrets|\"a'] x.y|\n")),
        Kind(name: "found logins after a password attack", make: repeated("[+] Performing password attack on Xmlrpc\n[SUCCESS] - a / b c [SUCCESS] - d / [SUCCESS] - - / / / e\n(SUCCESS] - ops / Tq7 Wm4zKx\n")),
        Kind(name: "Oracle logins with glyphs for zeros, calls whose arrows were lost", make: repeated("$ rman target sys/@rtIle7@ORCL a/@b@c/@d@e sqlplus x/@ @ @\nmy $dbh = DBI connect(\"a\", \"b\", \"c\", DBI connect( DBI connect(\"\n")),
        Kind(name: "curled empty arguments, doubled dots of conversions", make: repeated("auth := smtp.PlainAuth(”\", \"a\"”, \"Wq7m”, ”\", ”\") ”\",\nlet c = Credentials::new(\"a\".. to_owned(), \"b\".. \"c\"... to_owned()\n")),
        Kind(name: "Samba users whose percent OCR lost, key ids with glyphs", make: repeated("$ rpcclient -U 'deploys6wtT3GidwQ' a -U b -U 'cD1eFgH2iJ' smbclient -U -U -U\n$ duplicity --encrypt-key @x6B@CC@44EQQFDAF® ®®®®®®®® @x® ©x©©©©\n")),
        Kind(name: "mount users, found credentials, asking prompts", make: repeated("$ curlftpfs -o a,b,c,user=ana:Wq4m,user=b:c,-o user=a: x\n10.0.8.21 22/tep ssh: 'a' 'b' 'c' 'd\nPassphrase? ? ? Password? x\n<param name=\"password\" name=\"a\">Kx7</param>\n")),
        Kind(name: "quotes wrapped open, split bare keys, settings naming files", make: repeated("$ x -p 'q8Tm4Q~ZLXVwpWAUJo5Dh2cukmkRk 'a' \"b\" 'c\n_~KqYwZmRT8p' --t\nkey=JT8dPV1K6D@ywZc a b c d e f g h i\n$ d -e A_PASSWORD__FILE=/run/x B PASSWORD FILE=/y --token-file /z\n")),
        Kind(name: "key settings split often, quotes opened lines above", make: repeated("A_SECRET_KEY=xiesWI7Om82AAmx3 wum K8s 9ND a b c d e f g h i j k l\n$ curl 'https://a.b/c?d=e&f=g&h=i&j=k&l=m&n=o&p=q&r=s&t=u&v=w&x=y&z=0\n1&s ig=qbNFBFqDPZuoLdC9GkDY9\niRPN%2F7zFMt%3D' ' ' '\n")),
        Kind(name: "split wrapped rests before options", make: repeated("$ forgejo-runner register --instance https://git.acme.io/a/b/c --token 7kqZ0RWvmtPLxBcye\n4gh3Z7W MvpzdW8KcDFy9wcz --name r\n")),
        Kind(name: "signatures wrapped inside their names and values", make: repeated("$ curl 'https://a.b/c?d=e&f=g&h=i&j=k&l=m&n=o&p=q&r=s&t=u&v=w&x=y&z=0&sr=b&s\nig=a b c d e f &si\n=x y z bésig=Tq4 W\nQm9%2F a '\n")),
        Kind(name: "spaced mount options, users with an at sign", make: repeated("$ curlftpfs -o user=a:9 b c,d,e user=x:y z, -o user=q:r s\nsource = imaps://a%4@b. c: d@e. f: g@h ssh://g@h:i/j\n")),
        Kind(name: "newusers lines with split names, unquoted ncrack passwords", make: repeated("$ sudo newusers batch.txt\ndep Loy : Boa4B3P8DnoSt :1001:1001:0ps:/home/dep Loy: /bin/bash\n10.0.8.21 22/tcep ssh: 'a' b c d e' f 'g' h\"\n")),
        Kind(name: "split UUIDs after options, capitals after tokens", make: repeated("$ ./codecov -t acdd7005 -b68e-16c7-8a5c -t a1b2c3d4 -x choco apikey -k f0bb44a6-d975-04be-d482-605ead57b1 2c --token NGFRVIIVHQXURNVDWINJIAOAFYGMS Apikey -728b8968 -50a7 - 19a6 - 9f 6d - 1c36\n")),
        Kind(name: "signature rests after scraps, scraps around words under keys", make: repeated("$ curl 'https://a.b/c?d=e&f=g&h=i&j=k&l=m&n=o&p=q&r=s&t=u&v=w&x=y&z=0&sr=b&sig=yRdsdiJ\n5s LB p8 b Ov 8b 1F hQ 8x 7w C1 %2F\naws_session_token = IQoJb3JpZ21uX2VjEm+owu+7JA8VpTyXSDX6F5t/fcn/TbKnEN6nAppW40tbq+xaagww\nXthEy2q21KelQ j fj Apt f/ j a b c d e f g h i j\n")),
        Kind(name: "wrapped rests without vowels, sections without their bracket", make: repeated("$ az login --service-principal -u a -p 'PIw9Q~YKKA2Qdim~-M2IA1VqexISXNTQ a b c d e f g h i j k l m n o p q r s\nZkmzgkbd' --tenant b --c\n$ cat ~/.aws/credentials\nCshop-admin]\n+twD+gnnQl99kyr jILL\n")),
        Kind(name: "wrapped lines with hashes inside, names split before a low line", make: repeated("aws_session_token = IQoJb3JpZ2luX2VjEYDnh5oP17jmS06vObOh0e8Jk6bxds1MZhQlqf6/lInbwMoE92J08\nf#T9JA#ZE&S x#y#z\nSecret ID = @b6ef8c7-da95 @b6 Secret ID = a\nread -sr OS PASSWORD _INPUT _a _b\nADMIN_TOKEN=HSSxKDpGa5SBuV49 /anhULDg8 PSFk a b c\n")),
        Kind(name: "curly quotes opened, settings split into consonants, short tokens", make: repeated("$ az login -u a -p ‘Wq7mLx2RtQz9VbNpHcGrnPwKz4TsYd8EfJh3AqWmXk2Lm9Qw a b c d e f g h i j k l m\nEmfWbPSZXdYG' --tenant b ‘ “ ’ ”\npassword=A2yxU9hQtD4 Ltdwt IFeQTPAL9+gukhzT\npassword=Xk2Lm9Qw1 Ltd Xk2 Lm9\n$ x --token Ab3dE9fG2k --api-key Ab3dE9fG2 --key Xk2Lm9Qw1\n")),
        Kind(name: "keys split before a dash, links split after one glyph, options under keys", make: repeated("$ oauth2-proxy --cookie-secret=MyG_pWcEtfGj3ABY -DY4Lpp2_fQg29f207sT2MQG204= -Xk2Lm9QwXk2Lm -a-b-c-d-e-f-g-h\n--email-domain=acme.io --upstream=http://a.b\nss://Y 2 h Y 2 h M j A t a W V O Z i l w b@ ss://a b c d e f g h i j k l\n@t150Nw4Zor+SKDY LmsGwhdWx05h @ @ @\n")),
        Kind(name: "padded keys split often, links split before their fragment", make: repeated("$ oauth2-proxy --cookie-secret=7w31XoRJhWyj5TS7WE5j sXwmSAumR fut luFSuCe - xwU= a b c d e f = = =\nnzb_key = 99fda53c817065de81b@fdc1%e22468b % % %e2\nhttps: //mega.nz/file/ HEyuuF He#ORudHIAEydiU-wfhd8fiBCV3Scdo a b # # #\n")),
        Kind(name: "printed passwords after a symbol, wrapped keys ending in scraps", make: repeated("$ security find-generic-password -s a -w\nDIM! C1Hv5Ynb7@ye DIM! DIM!\n<param name=\"password\"\u{201D}>Xk2Lm9</param> <param name=\"a\"\u{201D}\u{201D}>\nAccess Token 00DmU75dL29ymq6!NAHI8RwhBb7F7HXoC4XDDbaq9VgkAK2XhjSExQbH4B.c\nMwZaXSMsEVf 0Cif bOHABE j XFWpvXzKVUKxHu_HByyLWyJcLXs. to to to\n")),
        Kind(name: "split macros, hashing calls, grouped keys with junk", make: repeated("$USER3$=xeoSd ! 07m3*iw $USER4$=a b c d\n>>> Hash: :make( 'ecH5z-Bk8fXs5e*\"' ) make_password(‘x’) Hash: :make(\nSave your Security Key\nEsz5 6DHZ AhVm 2U0Q EPRU BtWj B8jv MnTa QphW vdSC 34F) ToSW a) b) c)\n")),
        Kind(name: "bot tokens after /bot, split path keys, chpasswd lines", make: repeated("$ curl https://api.telegram.org/bot62439891 23 : AAyxMVd11bCNoZKTOZOQBDpCaMdizR2pOMVO0e/sendMessage/a/b/c\nhttps://maker .ifttt.com/trigger/x/with/key/EFH8jhDyk908 loklqk_Sjq /key/ /key/Xk2Lm9Qw\nchpasswd:\nlist: |\nadmin: U9&g66 johFQI8 a b c\n")),
        Kind(name: "signatures split after letters, settings under keys", make: repeated("$ curl 'https://a.b/c?d=e&sr=b&s ig=Czcdt YGLXPm2NTmsa%2F2Ld9a Xkdq Xkdq Xkdq Xkdq Xk2Lm9 '\nkey=oqiz0iAddj SRYAF1jU7ogrrlfur312#nzIm3AcTA4/7CNa45t/f2WTyMZVFuj z5yd7RL/SZLGZoiobu\nsecret=a=b=c=d ab12-cd34-ef56-gh78-ij90\n")),
        Kind(name: "base64 JSON continued with a glued backslash, split links", make: repeated("$ sudo cloudflared service install \\\n    ey JhIjogImZlYWVjOTEy MjJlZTQzMzQ0ZDNm.ZjBjMzk3YmI2ZTJh\\,\n    Yy02MDY2LTk3 MDAtNmM2YTMy ZGZhYjA5\\\n    a b c d\\\nKey Content : gwaSNZR66 Key Content :\nhttps: //open.spotify.com/p/Wkhrq4rm?si=ed74 a://b Xk2?si=e Xk2?si=e\n")),
        Kind(name: "split sig names and labels, codes inside passwords", make: repeated("$ curl 'https://a.b/c?sr=b&s tg=v6M24K7 Vayv4R7C7 &s tg= &s tg=\npas sword=CXBy0yBZP1U1LytG pas sword= pas s\nexport OS_PASSWORD=7758 ! zWEYhUrL. 7758 7758\nyoutube. com/watch?v=PSCT_YVLEy0&t=42s Lcqbt Lcqbt\n")),
        Kind(name: "storage aliases, npm auth, signers' key ids", make: repeated("$ mc alias set minio http://192.168.1.4@:9000 ZIDIWZIS6IU4 WwiUW3A80tSt+6pc3 mc alias set a b c\n_auth=YWRtaW46aWZ5em9 YNDZxOT 15QkNESQ== _auth= _auth=\nSigner Digest Signers\nRoot Key: e03ccb9b227960b4090c790598aea1efeca27eb15e5409c16173bb6519346cc6 Root Key:\n")),
        Kind(name: "cookie rows after a dash, notes' pw", make: repeated("Cookies\n_gh_sess — 2d4JxpOvRNRcWFT9cQgLeiYEh6uN2hrbysAN — — a b\nnoor # pw hDMTYOC93BTm # pw pw pw Xk2Lm9Qw pw\n")),
        Kind(name: "quoted keys split before words, glued signatures, settings split before dashes", make: repeated("Environment=\"GITHUB_TOKEN=xQxWSDM10ZM699cu LQLKYj a b c d e \" \" \"\n?sv=2022-11-026sr=basig=TA1gA%2FZ0%2F FOgC =ba =ba =ba\nPWD=mZis -uAq1 -SGWE- - - -\n")),
        Kind(name: "users' dots apart, split bot ids, device codes with a small letter", make: repeated("imaps://tomas%40acme . io: j 960DW4CXE8f Jm imaps://a . b: c . d:\ndiscord Mj I2NTE2MzgwMDkwOTM3MDc3. j FOAOZ. Mj Mj I2NTE2MzgwMDkwOTM3MDc3.\nenter the code BSGD-RDNxX enter the code ABCD-EFGhI i0%2Fcallback %2F %2F\n")),
        Kind(name: "dashed flags, unclosed quotes, thin glyphs in prefixes", make: repeated("$ az login -u a -—p '4u@3Q~G-1DDPV39LDOFGVLGVDKVg5DoA0JDSe@PH -—p -—p ' ' '\n10.0.8.21 22/tcp ssh: 'deploy' 'jDil83+P6F ' ' '\nci-sync Lin_api_GOGPucnPagbVsQJIds Lin_api_ Lin_api_ 4u@3Q~ 4u@3Q~\n")),
        Kind(name: "key sets with members unclosed, names in capitals", make: repeated("{\"kty\": \"RSA\", \"n\": \"3PtIHVGjhI14UcugBx_qmrqMqmf JuSAMQCLcXcT j8_kvuCvf8s93zf \"d\": \"\" \"d\": \"a b c\nSVC_SYNC : XOMF48A+2X+2i:1001:1001:0ps:/home/svc_sync:/bin/bash A_B : c: A_B :\n")),
        Kind(name: "split query names, doubled quotes, wrapped quoted rests", make: repeated("Codecov: https://codecov.io/upload/v4?commit=6ea98b5b fcOba8aa9&br anch=main&build=1042 &br &br anch= \"SessionToken\"”: \"IQoJb3JpZ2luX2Vj \"a\"”: \"\"”:\nsecret=rHi2yRf jaeBxJ20KZK3T Jwaghyfz lt lrvgx2bY2796 Jwaghyfz Jwaghyfz\n$ az login -u a -p '5DV6Q~opRKnireCAtqJXR4h1\nZW. i8SLYTGvVK41V9' ZW. ZW. ' '\nMr #1i0Gp4i/+Z2v8V #a #b\n$ cat auth.txt\nct\nQETLAdQ70i\n")),
        Kind(name: "key ids, cookie columns, codes' stops, misread cues, prompts' dashes", make: repeated("Signer Digest Signers\nRoot Key: 7de49bc1e968f8Fc12d8d742754F07a719b12d33a169181eF645186ca4786b50 Root Key: 7de4 a b c\nName Value Domain Path\nconnect.sid s%3AKq4zdsM2nJJJ0YCuaDwDXvyXQH7UOMio . Lopxn LduXZhLpqGCkopsRcy JCQst pythnsdhkyTHMZd app.acme.io / Session x y z a.b\nBackup codes\n3,6944.8311 6, 8518 3213 1.2.3.4.5\nVas ovérovaci kdd je 570403 kddod: kéd k6d\nsource = imaps://dep lLoy%40acme. i0:MOnvZigQ9@imap.acme.io a b c d\nPassphrase? -JQVEvq8WC Passphrase? - -\n$ ldapsearch -w sik! 7yXuUB -b x -w a! b c d -w\n")),
        Kind(name: "key= and a random value", make: { size in
            Array(random(base64, size * 20 / 25)).chunked(20).map { "key=" + String($0) }.joined(separator: " ")
        }),
    ]

    func run() throws {
        let ordinary = try ordinaryText()
        let large = size * 4
        // Ordinary text with its line breaks made spaces: one long line.
        let oneLine = ordinary.replacingOccurrences(of: "\n", with: " ")
        let kinds = [Kind(name: "ordinary text on one line", make: { Self.prefix(oneLine, $0) })] + Self.kinds
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            let all = [Kind(name: "ordinary text", make: { Self.prefix(ordinary, $0) })] + kinds
            for (index, kind) in all.enumerated() where only.map({ kind.name.contains($0) }) ?? true {
                let name = String(kind.name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
                try kind.make(large).write(toFile: "\(write)/\(String(format: "%02d", index))-\(name).txt", atomically: true, encoding: .utf8)
            }
            print("wrote the texts of \(large) bytes to \(write)")
            return
        }
        var sink = 0
        /// The fastest of `rounds` runs, in seconds, or nil when one run took over `giveUp`.
        func fastest(_ text: String) -> Double? {
            var best = Double.infinity
            for _ in 0..<max(1, rounds) {
                let start = ContinuousClock.now
                sink &+= EntityExtractors.entitiesMaskingSecrets(in: text, region: "US").count
                let seconds = (ContinuousClock.now - start).seconds
                best = min(best, seconds)
                if seconds > giveUp { return nil }
            }
            return best
        }
        // The tables (phone metadata, gitleaks rules, suffixes) load on first use: not timed.
        _ = fastest("warm up: token=abc Anna Smith +1 415 555 0132 $3.20")
        guard let small = fastest(Self.prefix(ordinary, size)), let big = fastest(Self.prefix(ordinary, large)) else {
            throw ValidationError("ordinary text took over \(giveUp) s")
        }
        if stages { printStages(Self.prefix(ordinary, size), Self.prefix(ordinary, large)) }
        let ordinaryPerKB = big / Double(large) * 1_000
        print("sizes \(size) and \(large) bytes; fastest of \(rounds); ordinary text: \(Self.ms(small)) and \(Self.ms(big)) ms, growth \(Self.f(big / small)), \(Self.ms(ordinaryPerKB)) ms/KB")
        print("kind".padding(toLength: 30, withPad: " ", startingAt: 0) + "   small ms    large ms  growth   ms/KB  × ordinary")
        var worst = (name: "", ratio: 0.0)
        for kind in kinds where only.map({ kind.name.contains($0) }) ?? true {
            let name = kind.name.padding(toLength: 30, withPad: " ", startingAt: 0)
            guard let a = fastest(kind.make(size)) else { print("\(name)   over \(giveUp) s at \(size) bytes"); continue }
            guard let b = fastest(kind.make(large)) else { print("\(name) \(Self.pad(Self.ms(a), 10))   over \(giveUp) s"); continue }
            let perKB = b / Double(large) * 1_000
            let ratio = perKB / ordinaryPerKB
            if ratio > worst.ratio { worst = (kind.name, ratio) }
            print("\(name) \(Self.pad(Self.ms(a), 10)) \(Self.pad(Self.ms(b), 11)) \(Self.pad(Self.f(b / a), 7)) \(Self.pad(Self.ms(perKB), 7)) \(Self.pad(Self.f(ratio), 11))")
            if stages { printStages(kind.make(size), kind.make(large)) }
        }
        print("costliest kind against ordinary text: \(worst.name), \(Self.f(worst.ratio)) ×")
        if sink == -1 { print(sink) }
    }

    /// Each stage's time on the two texts (one run each) and its growth.
    func printStages(_ small: String, _ large: String) {
        let detector = SecretDetector()
        let stages: [(String, (String) -> Int)] = [
            ("secrets", { detector.secrets(in: $0).count }),
            ("e-mails and URLs", { WebExtraction.emails(in: $0).count }),
            ("dates", { DateExtraction.entities(in: $0).count }),
            ("money", { MoneyExtraction.entities(in: $0).count }),
            ("people", { PersonExtraction.entities(in: $0).count }),
            ("all entities", { EntityExtractors.make(region: "US").entities(in: $0).count }),
        ]
        for (name, body) in stages {
            let (_, a) = Measure.time { body(small) }
            let (_, b) = Measure.time { body(large) }
            print("    \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(Self.pad(Self.ms(a), 10)) \(Self.pad(Self.ms(b), 11)) \(Self.pad(Self.f(b / max(a, 1e-9)), 7))")
        }
    }

    /// A corpus's ground-truth texts, joined, repeated to at least four times the size.
    func ordinaryText() throws -> String {
        let texts = try Measure.groundTruthTexts(in: corpus)
        guard !texts.isEmpty else { throw ValidationError("no ground-truth text in \(corpus)") }
        var joined = texts.joined(separator: "\n\n")
        while joined.utf8.count < size * 4 { joined += "\n\n" + joined }
        return joined
    }

    /// The text's first `bytes` bytes, cut back to a whole character.
    static func prefix(_ text: String, _ bytes: Int) -> String {
        var bytes = Array(text.utf8.prefix(bytes))
        while let last = bytes.last, last & 0xC0 == 0x80 || last >= 0xC0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1_000) }
    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
    static func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
}

extension Array {
    /// The array in runs of `size` (the last may be shorter).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
