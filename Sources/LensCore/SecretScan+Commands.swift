import Foundation

/// Secrets that tools and formats take in their own way, as their manuals document them: a
/// password flag that is not `-p` (`ldapsearch -w`, `sqlcmd -P`, `openssl enc -k`), Samba's
/// `-U user%password`, a password given as a plain argument (`htpasswd -b file user …`,
/// `rabbitmqctl add_user user …`, `net user name …`, `echo 'user:…' | chpasswd`), a signed URL's
/// signature (`X-Amz-Signature=`, Azure's `sig=`), a secret in an XML element or an `appSettings`
/// entry, and a product or licence key after its label.
extension SecretScan {
    // MARK: - Tools' own password arguments

    /// A tool, then (on its line) the option that takes its password: LDAP's tools `-w` (their
    /// `-P` is a protocol version) and Vertica's `vsql -w` (round 163), shadowsocks' `-k`, `gh secret set … --body`, `rclone obscure …`, SQL Server's `sqlcmd`/`bcp`/`osql` `-P` (also glued to it),
    /// `openssl enc -k` and `openssl dgst -hmac` (`-keyfile` is another option), macOS's `security
    /// add-generic-password … -w`, `nmcli … password`, DB2's `connect … user NAME
    /// using …`, FreeTDS's `tsql -P`, a Cisco SNMP
    /// community (its password: `snmp-server community …`), `ansible-vault encrypt_string '…'` (the
    /// literal it encrypts, after any options), `psexec -p`, `redis-cli -a` (and its forks', `valkey-cli`, `keydb-cli`; round 157) (a
    /// password of letters and digits that switch case seldom, `2gSOYPHCdQ`, which the generic
    /// `-a` rule cannot tell from a name). OCR may read the `l`
    /// of a name as `I` or `i`. The value may start with `-` (`-P -C0MBgDH39U`): a flag's name
    /// after it is too short, or no password (``isPasswordValue(_:quoted:)``). The option is looked
    /// for within 300 characters of the tool's name: a line of many names costs no more than that each.
    /// Also a wallet's `bitcoin-cli walletpassphrase '…'`, Mumble's `murmurd -supw …`, IRC's
    /// `/msg NickServ IDENTIFY [account] …` and a bouncer's `/quote PASS user/network:…`; irssi's
    /// `/connect [-tls] HOST PORT PASSWORD [NICK]` (and `/server add`), aircrack-ng's `KEY FOUND! [ … ]`,
    /// and a bare `--auth=` or `--auth ` given no `user:` (espota's and PlatformIO's `upload_flags = --auth=…`,
    /// `netlify deploy --auth …`, round 153;
    /// OCR may drop a dash or read both as `—`; a mode's word, `--auth=none`, is no password).
    /// Also `pdftk`'s `input_pw`, `owner_pw` and `user_pw` (maybe after a file's handle, `A=…`)
    /// and Codecov's uploader's `-t` (a token that is a UUID: the tool says what it is).
    /// (OCR may put a space after a dot of the host: `irc. libera.chat`.)
    static let toolPasswordFlag = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:(?:[lI1|]dap[a-z]*|vsql)(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-w)[ \t]+|(?:sq[lI1|i]cmd|bcp|osql|isql|tsql)(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-P)(?:[ \t]+|(?=[^\s\-]))|openssl(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-k|-hmac)[ \t]+|nmcli(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)[ \t]+|(?:redis|valkey|keydb)-cli(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-a)[ \t]+|security[ \t]+add-(?:generic|internet)-password(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-w)[ \t]+|snmp-server[ \t]+community[ \t]+|ansible-vault[ \t]+encrypt_string[ \t]+(?:--?[A-Za-z][A-Za-z\-]{0,30}(?:=|[ \t]+)[^\s\-]\S{0,127}[ \t]+){0,4}|psexec(?:64)?(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-p)[ \t]+|(?:x|wl|sdl-)?freerdp[23]?(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])/p:|convertto-securestring(?:[ \t]+-string)?[ \t]+|db2(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])user[ \t]+[^\s]{1,64}[ \t]+using[ \t]+|ss-?(?:server|local|redir|tunnel|manager)(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-k)[ \t]+|(?:gh|glab)[ \t]+secret[ \t]+set(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?:--body|(?-i:-b))(?:[ \t]*=[ \t]*|[ \t]+)|rclone[ \t]+obscure[ \t]+|bitcoin-cli(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])walletpassphrase[ \t]+|murmurd(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])-supw[ \t]+|nickserv[ \t]+identify[ \t]+(?:[^\s]{1,64}[ \t]+(?=\S))?|/(?:quote|raw)[ \t]+PASS[ \t]+(?:[^\s:]{1,64}:)?|/(?:connect|server[ \t]+add)[ \t]+(?:-network[ \t]+[^\s]{1,64}[ \t]+|-[A-Za-z0-9_]{1,16}[ \t]+){0,8}[A-Za-z0-9\-]{1,63}(?:\.[ ]?[A-Za-z0-9\-]{1,63}){1,8}[ \t]+\+?\d{2,5}[ \t]+|key[ \t]+found![ \t]*\[[ \t]*|(?:-{1,2}|—)auth(?:=|[ \t]+(?=[^\s\-]))(?![^\s:]{1,64}:)|pdftk(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?:input|owner|user)_pw[ \t]+(?:[A-Z]{1,2}=)?|codecov(?:cli)?(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-t)[ \t]+)"#)
    /// Caddy's `caddy hash-password --plaintext …`, Samba's `net rpc password USER …` and the MinIO
    /// client's `mc alias set ALIAS URL ACCESS_KEY SECRET_KEY` (round 151), FreeIPA's `ipa-server-install`
    /// and `ipa-replica-install` `-a` (the admin's password) or `-p` (the directory manager's), the first
    /// on the line (the generic `-p` rule takes the other; round 156), Semaphore's `sem connect HOST
    /// TOKEN` (its API token, the argument after the host; round 156), Pi-hole's `pihole -a -p
    /// PASSWORD` (its web password), `zip`'s and `unzip`'s `-P` and `mcrcon`'s `-p` (an RCON
    /// password; its `-P` is the port; round 158, found in earlier pools' clean texts), as ``toolPasswordFlag``
    /// has its tools; apart from it, and searched only where the text names them (each alternative
    /// of that pattern is tried at every position of every text that names any of its tools).
    static let cuedToolPasswordFlag = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:pihole(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])-a[ \t]+-p[ \t]+|(?:un)?zip(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-P)[ \t]+|mcrcon(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-p)[ \t]+|sem[ \t]+connect[ \t]+[^\s\-]\S{0,127}[ \t]+(?=[^\s\-])|ipa-(?:server|replica)-install(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-a|-p)[ \t]+(?=[^\s\-])|caddy[ \t]+hash-password(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])--plaintext(?:[ \t]*=[ \t]*|[ \t]+)|net[ \t]+rpc[ \t]+password[ \t]+[^\s\-][^\s]{0,63}[ \t]+(?=[^\s\-])|mc[ \t]+alias[ \t]+set[ \t]+[^\s\-]\S{0,63}[ \t]+[A-Za-z][A-Za-z0-9+.\-]{0,15}://\S{1,256}[ \t]+[^\s\-]\S{0,127}[ \t]+(?=[^\s\-]))"#)
    /// A secrets tool's `secret set NAME VALUE`: Earthly's `earthly secret set /user/db_password '…'`
    /// (whose name is a path), Bitwarden's `bws secret create KEY VALUE PROJECT`. A name given with
    /// `=` is ``labelledValues()``'s, a value given by option (`gh secret set NAME --body`) or read
    /// from a file (`docker secret create NAME ./file`, `< file`) none of these. Round 158.
    static let secretsToolValue = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])secrets?[ \t]+(?:set|put|create)[ \t]+[^\s\-=<]\S{0,127}[ \t]+(?=[^\s\-<./~])"#)

    /// What each tool of ``toolPasswordFlag`` holds in its name or its option, in small letters.
    static let toolPasswordCues = ["dap", "vsql", "cmd", "bcp", "osql", "isql", "tsql", "db2", "openssl", "add-generic", "add-internet", "nmcli", "redis-cli", "valkey-cli", "keydb-cli",
                                   "snmp-server", "psexec", "freerdp", "securestring", "ss-", "sslocal", "ssserver", "ssredir", "sstunnel", "ssmanager",
                                   "secret set", "obscure", "encrypt_string", "walletpassphrase", "supw", "nickserv", "quote pass", "raw pass", "/connect",
                                   "server add", "key found", "-auth=", "—auth=", "-auth ", "—auth ", "pdftk", "codecov"]
    /// An SNMPv3 user in `snmpd.conf`: `createUser NAME SHA "…" AES "…"`; each pass phrase's start
    /// (groups 1 and 2; the second is optional).
    static let snmpCreateUser = TextMatcher(
        #"(?<![A-Za-z0-9_\-])createUser[ \t]+[^\s]{1,64}[ \t]+(?:MD5|SHA[\-0-9]{0,4})[ \t]+(?=(\S))(?:\S{1,128}[ \t]+(?:DES|AES[\-0-9]{0,4})[ \t]+(?=(\S)))?"#)
    /// Oracle's tools take `user/password@database` (`sqlplus scott/tiger@db:1521/ORCL`); the
    /// password ends at the argument's last `@` (a connect identifier holds none; a password may,
    /// or OCR read a `0` of it as one: `sys/j@o&Lq…@ORCL`, also its first, `sys/@rtI…@ORCL`) or the
    /// argument's end. RMAN names the database first: `rman target sys/…@ORCL`.
    static let oracleLogin = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:sqlplus|sqlldr|expdp|impdp|rman|dgmgrl)(?:[ \t]+(?:-[A-Za-z]+|target|catalog|auxiliary))*[ \t]+(?:userid=)?[A-Za-z0-9_$#]{1,30}[ \t]?/[ \t]?(?=[^\s@/]|@[^\s@/]{1,128}@)"#)
    /// A cloud CLI's flag that takes a secret's value (`aws ssm put-parameter … --value`, `az
    /// keyvault secret set … --value`, `aws secretsmanager … --secret-string`), on a line that
    /// names a secret (its name, or `secret` in the command).
    static let secretValueFlag = TextMatcher(#"(?i)(?<=[ \t])--(?:value|secret-string|secret-value)(?:[ \t]*=[ \t]*|[ \t]+)(?=\S)"#)
    static let namesASecret = TextMatcher(#"(?i)pass(?:word|wd|phrase)?(?![A-Za-z])|pwd|secret|token|api[\-_]?key|credential|private[\-_]?key"#)

    /// Samba's tools (`smbclient`, `rpcclient`, `smbmap`, `net`, `mount.cifs`) take `user%password`.
    /// (The first `%`: OCR may read a letter of the user's name as a symbol, `svc_et]1%…`.)
    static let sambaUser = TextMatcher(#"(?:(?<=[ \t])|^)(?:-U|--user(?:name)?(?:=|[ \t]))[ \t]*[^\s%]{1,64}?%"#)
    /// A mount's options that give a user and a password together (`curlftpfs -o
    /// user=NAME:PASSWORD,allow_other`): the password follows, to the next `,` or space.
    static let mountUserOption = TextMatcher(#"(?<![A-Za-z0-9_\-])-o[ \t]*(?:[^\s,]{1,64},){0,16}user[ \t]?=[ \t]?[^\s:,]{1,64}[ \t]?:[ \t]?(?=[^\s,])"#)
    /// ncrack's found credentials: `HOST PORT/tcp SERVICE: 'USER' 'PASSWORD'` (OCR may curl the
    /// quotes, read `tcp` as `tep` or `tcep`, the user's closing quote as another glyph, `‘ops!`,
    /// miss the password's opening one and read its closing one as a double one, `'xcX9…UeUP"`,
    /// or miss its closing one after an opening one, `'jDil83+P6F`; round 134);
    /// group 1 the password.
    static let ncrackCredentials = TextMatcher(#"(?m)^[ \t]*\S{1,255}[ \t]+\d{1,5}/(?:t[a-z]{1,2}p|udp)[ \t]+[A-Za-z0-9\-_.]{2,32}[ \t]?:[ \t]+['‘’]\S{1,64}[ \t]+(?:['‘’]([^\n]{1,128}?)['‘’"“”]?|([^\n]{1,128}?)['‘’"“”])[ \t]*$"#)
    /// A prompt that asks with a question mark and shows what was typed after it (connman's
    /// `Passphrase? …`), alone at its line's start; the value must be machine-made.
    static let questionPrompt = TextMatcher(#"(?im)^[ \t]*(?:passphrase|password|passwort|passcode)[ \t]?\?[ \t]+(?=\S)"#)
    /// A Samba tool's `-U` argument with no `%` (group 1, maybe quoted): OCR may read the `%` as a
    /// letter (`rpcclient -U 'deploys6wtT3GidwQ'`).
    static let sambaToolUser = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:rpcclient|smbclient|smbcacls|smbget|smbtree|samba-tool|winexe|net[ \t]+(?:ads|rpc|rap|sam|dom))(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])(?-i:-U)[ \t]*["'‘’“”]?([^\s%"'‘’“”]{10,128})(?=["'‘’“”]|\s|$)"#)
    /// Apache's `htpasswd` and its options (group 1): in batch mode (`-b`) the password is given as
    /// the last argument, after the file (none with `-n`) and the user's name.
    static let htpasswdCommand = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])htpasswd((?:[ \t]+-[A-Za-z]+)+)[ \t]+"#)
    /// A password given as a plain argument after the user's name: `rabbitmqctl add_user` or
    /// `change_password`, Windows' `net user NAME PASSWORD` (a lone `*` asks for it). OCR may read
    /// `rabbitmqctl` as `rabbitmgctl`, `add_user` as `add user`, `mosquitto_passwd` as
    /// `mosquitto passwd`. Composer's and Poetry's `config http-basic.REPO USER PASSWORD` too, and
    /// any tool's `register URL USER PASSWORD` (Xen Orchestra's `xo-cli`; round 162), and
    /// `steamcmd +login USER PASSWORD`; the XMPP servers' `register USER HOST PASSWORD` (ejabberd,
    /// Prosody), `mosquitto_passwd -b FILE USER PASSWORD`
    /// and Backblaze's `b2 account authorize KEY_ID KEY`; `samba-tool user create USER PASSWORD`;
    /// MinIO's `mc admin user add ALIAS USER PASSWORD` and `mc alias set ALIAS URL ACCESS_KEY SECRET_KEY`
    /// (`mc config host add …` before; the address as OCR read it, `http://192.168.1.4@:9000`); Redis Sentinel's `sentinel auth-pass MASTER PASSWORD`;
    /// an Oracle wallet's `mkstore … -createCredential ALIAS USER PASSWORD`; BitlBee's `account add PROTOCOL USER PASSWORD`;
    /// Sysinternals' `Autologon USER DOMAIN PASSWORD`; Drupal's `drush user:password USER PASSWORD`;
    /// any tool's `users add USER PASSWORD` or `user create USER PASSWORD` (File Browser's; the
    /// user starts with no `-`: `user create --username …` gives it by option; an e-mail address
    /// after the user is none, `wp user create ana ana@acme.io`; round 157), also a superuser's and
    /// `upsert` (PocketBase's `superuser upsert EMAIL PASSWORD`; round 158);
    /// unixODBC's `isql [-v …] DSN USER PASSWORD` (the DSN and user start with no `-`: Sybase's
    /// `isql -S server -U user -P …` is ``toolPasswordFlag``'s); Webmin's `changepass.pl CONFIG_DIR
    /// USER PASSWORD` and OrientDB's console `CONNECT remote:HOST/DB USER PASSWORD` (round 164).
    /// What follows Autologon's domain to the line's end: the password in up to three pieces
    /// (group 1), then maybe `/accepteula`, glued or not.
    static let autologonPassword = TextMatcher(#"(?i)^([^\s/]{1,64}(?: [^\s/]{1,64}){0,2}?)[ \t]*(?:/accepteula[ \t]*)?$"#)
    static let userThenPassword = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:rabbitm[qg]ctl[ \t]+(?:add[_ ]user|change[_ ]password)|net[ \t]+user|(?:ejabberdctl|prosodyctl)[ \t]+register[ \t]+[^\s/]{1,64}|samba-tool[ \t]+user[ \t]+(?:create|add)|[a-z][a-z0-9_\-]{1,30}[ \t]+(?:super)?users?[ \t]+(?:add|create|upsert)(?=[ \t]+[^\s\-/]{1,64}[ \t]+(?![^\s@]{1,64}@[A-Za-z0-9\-]{1,63}\.[A-Za-z]))|mc[ \t]+admin[ \t]+user[ \t]+add[ \t]+[^\s/]{1,64}|[a-z][a-z0-9_\-]{1,30}[ \t]+register(?:[ \t]+--?[A-Za-z\-]+)*[ \t]+https?://[^\s]{1,256}(?=[ \t]+[^\s\-])|sentinel[ \t]+auth-pass|mosquitto[_ ]?passwd(?:[ \t]+-[A-Za-z]+)*[ \t]+-b[ \t]+[^\s]{1,256}|b2[ \t]+(?:authorize-account|authorize_account|account[ \t]+authorize)|steamcmd[^\n]{0,200}?[ \t]\+login|(?:poetry|composer)[ \t]+config[ \t]+(?:-[A-Za-z\-]+[ \t]+)*http-basic\.[^\s]{1,128}|mkstore[^\n]{0,300}?[ \t]-(?:create|modify)Credential[ \t]+[^\s]{1,128}|account[ \t]+add[ \t]+[a-z0-9\-]{2,16}|autologon(?:64a?)?(?:\.exe)?[ \t]+[^\s/]{1,64}|drush[ \t]+(?:user:password|user-password|upwd)|mc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+[^\s/]{1,64}[ \t]+\S{1,256}|isql(?:[ \t]+-[A-Za-z0-9,]{1,16})*[ \t]+(?!-)[^\s/]{1,64}(?=[ \t]+[^\s\-])|changepass(?:\.pl)?[ \t]+\S{1,256}|connect[ \t]+(?:remote|plocal|memory):[ \t]?\S{1,256})[ \t]+(?!/)[^\s/]{1,64}[ \t]+(?=[^\s/])(?!\*(?:\s|$))"#)
    /// `lftp -u user,password`: the user and the password after a comma.
    /// (OCR may read its `l` as `1` or `1l`, or drop it, and put a space beside the comma.)
    /// The password ends at the first space.
    static let lftpUser = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])[l1I|]{0,2}ftp(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])-u[ \t]+[^\s,]{1,64}[ \t]?,[ \t]?"#)
    /// A pre-shared key in strongSwan's `ipsec.secrets` (`%any host : PSK "…"`), and a secret set
    /// by a network device's `set` command (FortiGate's `set psksecret …`, Juniper's and VyOS's
    /// `set … pre-shared-key …`, `set password …`, VyOS's `set system login user … authentication
    /// plaintext-password …`).
    static let presharedKey = TextMatcher(
        #"(?im):[;,.]?[ \t]*(?:PSK|EAP|XAUTH)[ \t]+(?=["'])|^[ \t]*set[ \t]+(?:[A-Za-z0-9_.\-]+[ \t]+){0,6}?(?:plaintext-)?(?:psksecret|passwd|password|pre-shared-(?:key|secret)|secret)[ \t]+(?:ascii-text[ \t]+)?"#)
    /// SNMPv3's pass phrases: `-A` (authentication) and `-X` (privacy), and v1's and v2c's
    /// community (`-c`, its password), each time they come on the line of a tool of net-snmp's
    /// (`snmpwalk`, `snmpget`, `snmpset`, …).
    /// (Also `net-snmp-create-v3-user`, which makes an SNMPv3 user with both.)
    static let snmpTool = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:snmp[a-z]{2,12}|net-snmp-create-v3-user)(?![A-Za-z0-9_\-])"#)
    static let snmpPassphraseFlag = TextMatcher(#"(?<=[ \t])-[AXc][ \t]+"#)
    /// `ssh-keygen`'s passphrases (`-N` new, `-P` old) and `ldappasswd`'s passwords (`-s` new,
    /// `-a` old; `-w` is every LDAP tool's, ``toolPasswordFlag``).
    static let sshKeygen = TextMatcher(#"(?<![A-Za-z0-9_\-])ssh-keygen(?![A-Za-z0-9_\-])"#)
    static let sshKeygenPassphraseFlag = TextMatcher(#"(?<=[ \t])-[NP][ \t]+"#)
    static let ldappasswd = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])[lI1|]dappasswd(?![A-Za-z0-9_\-])"#)
    static let ldappasswdFlag = TextMatcher(#"(?<=[ \t])-[sa][ \t]+"#)
    /// The cue, the tool and its options that take a password, each on the tool's line, and
    /// whether the tool takes options only (no host, user or file after them, as `snmpwalk`,
    /// `ldappasswd` and `conan user` take): then what lies between an option and the next is its value.
    static let toolsWithPasswordOptions: [(cue: String, tool: TextMatcher, flag: TextMatcher, optionsOnly: Bool)] = [
        ("snmp", snmpTool, snmpPassphraseFlag, false), ("keygen", sshKeygen, sshKeygenPassphraseFlag, true), ("dappasswd", ldappasswd, ldappasswdFlag, false),
        ("conan", conanLogin, passwordOption, false), ("pvk2pfx", pvk2pfx, pvk2pfxPasswordOption, true)]
    /// Windows SDK's `pvk2pfx -pvk … -pi PASSWORD -spc … -pfx … -po PASSWORD`.
    static let pvk2pfx = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])pvk2pfx(?:\.exe)?(?![A-Za-z0-9_\-])"#)
    static let pvk2pfxPasswordOption = TextMatcher(#"(?<=[ \t])-p[io][ \t]+"#)
    /// Conan's `conan remote login REMOTE USER -p PASSWORD` (2.x) and `conan user -p PASSWORD -r REMOTE USER` (1.x).
    static let conanLogin = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])conan[ \t]+(?:remote[ \t]+login|user)(?![A-Za-z0-9_\-])"#)
    static let passwordOption = TextMatcher(#"(?<=[ \t])(?:-p|--password)(?:[ \t]+|=)"#)
    /// A key-value store's `put` or `set` of a key whose last part names a secret (`etcdctl put
    /// /config/shop/db_password '…'`, `redis-cli SET payment:api_key "…"`, `consul kv put app/token …`,
    /// .NET's `dotnet user-secrets set "Smtp:Password" "…"`): group 1 the key, maybe quoted; the value follows.
    static let storePut = TextMatcher(#"(?i)(?:put|set)[ \t]+["'“”]?([^\s'"“”]{1,256})["'“”]?[ \t]+(?=\S)"#)
    /// A tool's `login` or `auth` given a token as its argument (`cargo login cio…`, `snyk auth
    /// UUID`): the token must be random (``isRandomToken(_:)``), the last argument or before an option.
    /// (It may start with a `0` OCR read as `@`: `wandb login @ece57…`.)
    /// Also ngrok's `authtoken`, and, where a command starts its line (after a prompt), a tool's
    /// `enable` or `token` (zrok's `zrok enable TOKEN`, Expose's `expose token UUID`; round 159),
    /// in small letters as commands are: group 2 the word. (Elsewhere `token` and `enable` are
    /// words of prose, or of a name in capitals OCR spaced, `ACCESS TOKEN SALT=…`.)
    static let tokenLogin = TextMatcher(
        #"(?i)[a-z0-9][a-z0-9.\-]{1,24}[ \t]+(login|auth|authtoken)[ \t]+(?=[A-Za-z0-9@])|(?m-i:^[ \t]*(?:[$#%>❯][ \t]*)?(?:sudo[ \t]+)?[a-z0-9][a-z0-9.\-]{1,24}[ \t]+(enable|token)[ \t]+(?=[A-Za-z0-9@]))"#)
    /// Postfix's SASL password map given as a `static:` table: `smtp_sasl_password_maps =
    /// static:user:password`; the password follows the user. (OCR may put spaces after the colons,
    /// and read the `_` before `maps` as a space, or put one after it: `password_ maps`.)
    static let staticPasswordMap = TextMatcher(#"(?i)password(?:_ ?| )maps[ \t]*=[ \t]*static ?: ?[^\s:]{1,128}(?: [^\s:]{1,16})? ?: ?(?=\S)"#)
    /// Exim's `passwd.client`: `host:user:password` (the host may be a pattern, `*.mail.acme.io`);
    /// group 1 the password, to the line's end. (OCR may put spaces after the colons and inside it,
    /// and beside a dot of the host, `smtp.acme. io`, or after a dot of the user, `lena@acme. io`,
    /// and read a pattern's `*.` as `* `: `* mail.acme.io`.)
    static let eximClientLine = TextMatcher(#"(?m)^[ \t]*(?:\* )?[^\s:#]{1,255}(?:(?<=\.) [^\s:#]{1,255}| (?=\.)[^\s:#]{1,255})? ?: ?[^\s:]{1,128}(?:(?<=\.) [^\s:]{1,128})? ?: ?(\S[^\n]{2,127}?)[ \t]*$"#)
    /// Bundler's credentials for a gem source: `bundle config [set] [--global] HOST user:password`;
    /// the password follows. (OCR may put a space beside the colon, read a dot of the host as a
    /// comma, `gems.acme,io`, or put a space after one, `gems.acme. io`.)
    static let bundlerCredentials = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])bundle[ \t]+config(?:[ \t]+set)?(?:[ \t]+--(?:global|local))?[ \t]+[A-Za-z0-9.,\-_]{3,253}(?:(?<=\.) [A-Za-z0-9.,\-_]{1,253})?[ \t]+[^\s:"']{1,64} ?: ?(?=[^\s"'])"#)
    /// A CLI's `config set` or `configure set` of settings, `NAME VALUE` pairs (`aws configure set
    /// aws_secret_access_key …`, `tccli configure set secretId … secretKey … region …`, `npm config
    /// set //registry/:_authToken …`): a value whose name names a secret.
    static let configSet = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])config(?:ure)?[ \t]+set[ \t]+(?=\S)"#)
    /// proxychains' `[ProxyList]` entry: `socks5 HOST PORT USER PASSWORD`; the password follows.
    /// (OCR may read the `5` as `S`.)
    static let proxyListEntry = TextMatcher(#"(?im)^[ \t]*(?:socks[45Ss]|https?|raw)[ \t]+[^\s]{1,64}[ \t]+\d{2,5}[ \t]+[^\s]{1,64}[ \t]+(?=\S)"#)
    /// An INI section of administrators and their passwords (CouchDB's `[admins]`, a password as
    /// typed until CouchDB hashes it: `-pbkdf2-…` is a hash) and an entry `name = value` (group 1).
    static let adminsSection = TextMatcher(#"(?im)^[ \t]*\[admins\][ \t]*$"#)
    /// (OCR may split the password once: `lena = 6U9! fmTc?ZIObk*`.)
    static let iniEntry = TextMatcher(#"^[ \t]*[A-Za-z0-9_.@\-]{1,64}[ \t]*=[ \t]*(\S{1,128}(?: \S{1,128})?)[ \t]*$"#)
    /// A JSON string sent as a request's body to an address whose path names credentials (CouchDB's
    /// `curl -X PUT …/_config/admins/ana -d '"…"'`): group 1 the string. (OCR may curl the quotes.)
    static let jsonStringBody = TextMatcher(#"(?i)/(?:admins|passwords?|secrets?|tokens?)/[^\s]{0,128}[ \t]+(?:-d|--data(?:-raw)?)[ \t]+['‘’]["“”]([^"“”'’\s]{4,128})["“”]['’*]?"#)
    /// 3proxy's `users NAME:CL:PASSWORD` (`CL` a password as typed; `CR` and `NT` are hashes).
    static let clearProxyUser = TextMatcher(#"[A-Za-z0-9_.\-]:CL:(?=\S)"#)
    /// A line of `/etc/shadow`'s shape (`name:password:19700:0:99999:7:::`) or `/etc/passwd`'s
    /// (`name:password:1000:1000:Name:/home/…`); group 1 the password's field.
    /// (OCR may put a space beside a colon, and split the password: `ops : BMQdua? ! 9BwvGA: 19700: 0:…`,
    /// `deploy : xYwugHea5s+s : 1001: 1001:0ps:/home/…`, read a `0` of its numbers as `@`, `ci:…:19700:@:99999:7:::`,
    /// and a name's `l` as `L`: `Lena: …`, or split the name, `dep Loy : …`; or read the name in
    /// capitals, `SVC_SYNC : XOMF48A+2X+2i:1001:…`, round 135; or an `l` inside it as `L` or `I`,
    /// `depLoy :…`, round 145.)
    static let accountLine = TextMatcher(
        #"(?m)^[ \t]*(?:[A-Za-z_][a-z0-9_.\-LI]{0,31}|[A-Z_][A-Z0-9_.\-]{0,31})(?: [A-Za-z][a-z0-9_.\-]{0,31})?\$?[ \t]?:[ \t]?([^:\s](?:[^:\n]{0,126}[^:\s])?)[ \t]?:[ \t]?(?:\d{1,10}[ \t]?:[ \t]?[\d@O]{0,10}[ \t]?:[ \t]?[\d@O]{0,10}[ \t]?:[ \t]?[\d@O]{0,10}[ \t]?:|\d{1,10}[ \t]?:[ \t]?\d{1,10}[ \t]?:[^:\n]{0,128}:[ \t]?[/~])"#)
    /// Whether an account line's password field holds a password as typed (`john --show`'s output,
    /// a list of cracked or seeded accounts), not what the files hold: a hash (`$6$…`, `$y$…`, a
    /// DES crypt's 13 characters), a lock (`!`, `*`, `!!`, `*LK*`) or the `x` that points to `shadow`.
    /// (After `john --show` or a cracked hash's count, 13 characters are a cracked password, not a
    /// DES crypt; so they are in a file given to `newusers`, which takes passwords as typed: `asTyped`.)
    static func isClearAccountPassword(_ field: String, asTyped: Bool = false) -> Bool {
        // (Nor is an address's rest after its scheme: `http://…/f?p=labs:49:::::`.)
        guard !field.contains("$"), !field.hasPrefix("/"), !field.allSatisfy({ "!*".contains($0) }), !["x", "NP", "LK", "*LK*", "*NP*"].contains(field) else { return false }
        // (A lock may come before the hash: `!` or `*` then the 13 characters.)
        let hash = field.drop { "!*".contains($0) }
        if !asTyped, hash.count == 13, hash.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "/") }) { return false }
        return isPasswordValue(field, quoted: true)
    }
    /// `kubectl create secret generic NAME --from-literal=KEY=VALUE`: each literal is the secret's.
    static let literalOfASecret = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])--from-literal[ \t]*=[ \t]*[A-Za-z0-9_.\-]{1,64}[ \t]*="#)
    /// `echo 'ana:…' | sudo chpasswd`: the user's name and password, piped to the tool that sets them
    /// (OCR may put a space beside the `:`, `'ops: rY5Q…'`).
    static let chpasswdLine = TextMatcher(
        #"(?i)(?<![A-Za-z])echo[ \t]+(?:-[en][ \t]+)?["'‘’“”]?[A-Za-z0-9_.\-]{1,32}[ \t]?:[ \t]?([^\s"'‘’“”]{3,128})["'‘’“”]?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd(?![A-Za-z])"#)

    func toolPasswords() -> [Secret] {
        var found: [Secret] = []
        // The value given to the option or as the argument: machine-made (``separateValue(after:)``)
        // and no word; the tool says it is a password, so it need not look like one on its own.
        func add(after index: Int, dashStartsIt: Bool = false) {
            if let password = passwordArgument(after: index, dashStartsIt: dashStartsIt) { found.append(password) }
        }
        let namesATool = mentions(anyOf: Self.toolPasswordCues), namesACuedTool = mentions("hash-password", "rpc password", "alias set", "ipa-server-install", "ipa-replica-install", "sem connect",
                                                                          "pihole", "zip", "mcrcon")
        if namesATool || namesACuedTool {
            let cued = namesACuedTool ? Self.cuedToolPasswordFlag.matches(in: searchable) : []
            // (Each of the pattern's tools is on its option's line and holds one of these cues: only
            // the lines that hold one are read, not the whole text for each of its thirty tools.)
            let flags = namesATool ? Self.toolPasswordFlag.matches(in: searchable, within: lines(mentioning: Self.toolPasswordCues)) : []
            for match in flags + cued {
                let before = found.count
                add(after: match.end, dashStartsIt: true)
                // (OCR may split the value after a symbol, `-w sik! 7yXuUB -b …`: the pieces before the
                // next option are the value when together they look like a secret, none an address;
                // a mode's word stays, `--auth=oauth https://…`; round 140.)
                if found.count == before, let password = passwordSplitAfterASymbol(at: match.end) { found.append(password) }
            }
        }
        if mentions("secret set", "secrets set", "secret put", "secrets put", "secret create", "secrets create") {
            for match in Self.secretsToolValue.matches(in: searchable) {
                guard var password = passwordArgument(after: match.end, dashStartsIt: false),
                      Self.fileName.firstMatch(in: slice(password.start, password.end)) == nil else { continue }
                // (The argument after the value is no piece of it when it is a UUID: `bws`'s project.)
                if let space = utf8[password.start..<password.end].lastIndex(of: 0x20), uuidEnd(from: space + 1) != nil {
                    password.end = space
                }
                found.append(password)
            }
        }
        if mentions("createuser") {
            for match in Self.snmpCreateUser.matches(in: searchable) {
                for group in [1, 2] { if let range = match.range(group) { add(after: range.lowerBound) } }
            }
        }
        if mentions("%") {
            for match in Self.sambaUser.matches(in: searchable) {
                // OCR may read the `%` as glyphs of another kind (`ciX¥TC7xBh%Df?…`, a `%` of the
                // password taken for it): a machine-made rest after such a glyph is the password's.
                if let glyph = utf8[match.start..<match.end].firstIndex(where: { $0 >= 0x80 }),
                   case let rest = utf8[glyph..<(match.end - 1)].drop(while: { $0 >= 0x80 }), rest.count >= 6,
                   isMachineMade(rest.startIndex, rest.endIndex) {
                    var stop = match.end
                    while stop < utf8.count, !Self.isSpace(utf8[stop]), !Self.isLineBreak(utf8[stop]) { stop += 1 }
                    found.append(secret(.password, nil, glyph, valueEnd(from: stop)))
                    continue
                }
                // (The `%` ties the password to the user: OCR may split it after a symbol, its rest
                // machine-made to the line's end: `Administrator%Mmu! hycb67H-hZXN`.)
                if let pieces = piecesToLineEnd(from: match.end, atMost: 2, maximumSpaces: 1), pieces.count == 2, pieces[0].start == match.end,
                   !Self.isAlphanumeric(utf8[pieces[0].end - 1]), isMachineMade(pieces[1].start, pieces[1].end),
                   let password = password(pieces[0].start, pieces[1].end, quoted: true) {
                    found.append(password)
                    continue
                }
                add(after: match.end, dashStartsIt: true)
            }
        }
        if mentions("-o"), mentions("user") {
            for match in Self.mountUserOption.matches(in: searchable) {
                var end = match.end
                while end < utf8.count, end - match.end < 128, !Self.isSpace(utf8[end]), !Self.isLineBreak(utf8[end]), utf8[end] != 0x2C { end += 1 }
                // (An option list holds no space: one that goes on to a `,` after a single space was a
                // `_` OCR read as one, `user=tomas:9 aZ3arZIe,allow_other`.)
                if end < utf8.count, utf8[end] == 0x20, let rest = piece(from: end, maximumSpaces: 1),
                   let comma = utf8[rest.start..<rest.end].firstIndex(of: 0x2C), comma > rest.start, comma - match.end < 128 {
                    end = comma
                }
                if let password = password(match.end, end, quoted: true) { found.append(password) }
            }
        }
        if mentions("/tcp", "/udp", "/tep", "/top") {
            for match in Self.ncrackCredentials.matches(in: searchable) {
                if let range = match.range(1) ?? match.range(2), let password = password(range.lowerBound, range.upperBound, quoted: true) { found.append(password) }
            }
        }
        if mentions("?"), mentions("passphrase", "password", "passwort", "passcode") {
            // (What is typed at a prompt is no command's option: a `-` may start it, `Passphrase?
            // -JQVEvq8WC`; round 139.)
            for match in Self.questionPrompt.matches(in: searchable) { add(after: match.end, dashStartsIt: true) }
        }
        if mentions("-u"), mentions("smb", "rpcclient", "samba", "winexe", "net") {
            // A `-U` argument without its `%` is no user's name alone when its case changes twice
            // or more and it holds a digit (`deploys6wtT3GidwQ`; `Administrator`, `svc_backup01`
            // stay): masked whole, since where the user's name ends cannot be told.
            for match in Self.sambaToolUser.matches(in: searchable) {
                guard let range = match.range(1), case let argument = utf8[range], Self.caseChanges(argument) >= 2,
                      argument.contains(where: { (0x30...0x39).contains($0) }) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        if mentions("htpasswd") {
            for match in Self.htpasswdCommand.matches(in: searchable) {
                guard let options = match[1]?.replacingOccurrences(of: " ", with: ""), options.contains("b") else { continue }
                // The file (unless `-n`), the user, then the password, last on the line: the last
                // piece when there are enough (OCR may split the file's path: `/etc/nginx/. htpasswd`).
                // (At most 12 pieces: a line of many `htpasswd`s costs no more than that each.)
                guard let pieces = piecesToLineEnd(from: match.end, atMost: 12, maximumSpaces: .max), let last = pieces.last,
                      pieces.count >= (options.contains("n") ? 2 : 3) else { continue }
                // (OCR may split the password too, `root MQfLU95z+94 _“dIa`: after the file's pieces
                // (one, and those its path's `/` or `.` joins) and the user's, the rest is the
                // password's, when together they look like a secret; round 165.)
                var user = 0
                if !options.contains("n") {
                    user = 1
                    while user < pieces.count - 2, "/.".utf8.contains(utf8[pieces[user - 1].end - 1]) || "/.".utf8.contains(utf8[pieces[user].start]) { user += 1 }
                }
                if user + 2 < pieces.count, case let value = squeezed(pieces[user + 1].start, last.end), value.count >= 6,
                   Self.isPasswordValue(value, quoted: false), Self.looksLikeSecretOnItsOwn(value) {
                    found.append(secret(.password, nil, pieces[user + 1].start, last.end))
                    continue
                }
                add(after: last.start, dashStartsIt: true)
            }
        }
        if mentions("ftp") {
            for match in Self.lftpUser.matches(in: searchable) {
                var end = match.end
                while end < utf8.count, !Self.isSpace(utf8[end]), !Self.isLineBreak(utf8[end]) { end += 1 }
                guard end - match.end >= 4, Self.isPasswordValue(slice(match.end, end), quoted: true) else { continue }
                found.append(secret(.password, nil, match.end, end))
            }
        }
        if mentions("psk", "eap", "xauth", "set ") {
            for match in Self.presharedKey.matches(in: searchable) { add(after: match.end, dashStartsIt: true) }
        }
        // Tools that take two passwords or more, each after its option on the tool's line.
        for (cue, tool, flag, optionsOnly) in Self.toolsWithPasswordOptions where mentions(cue) {
            for line in lines(mentioning: [cue]) {
                guard let tool = tool.matches(in: searchable, within: [line]).first else { continue }
                for flag in flag.matches(in: searchable, within: [line]) where flag.start > tool.end {
                    let before = found.count
                    add(after: flag.end, dashStartsIt: true)
                    // (The tool names the option's value a password: random letters will do, 8 or more
                    // of both cases with capitals side by side, as OCR may leave them of its digits:
                    // `-pi BBHAXFMkz`.)
                    if found.count == before, let value = piece(from: flag.end, maximumSpaces: 0), value.start == flag.end,
                       Self.isShortRandomLetters(slice(value.start, value.end), minimumLetters: 8) {
                        found.append(secret(.password, nil, value.start, value.end))
                    }
                    // (OCR may split the value, `-po Wka! k9AR*k` at the line's end: where only options
                    // follow, the pieces before the next one are the value.)
                    if found.count == before, optionsOnly, let password = splitValueBeforeDashOption(after: flag.end) {
                        found.append(password)
                    }
                }
            }
        }
        if mentions("from-literal") {
            // (A ConfigMap's literals are no secrets: the command creates a secret.)
            for line in lineRanges() where Self.holds(lowered[line.bytes], Array("from-literal".utf8)) && Self.holds(lowered[line.bytes], Array("secret".utf8)) {
                for literal in Self.literalOfASecret.matches(in: searchable, within: [line.utf16]) {
                    guard let (start, end, quoted) = value(after: literal.end), end > start else { continue }
                    let value = squeezed(start, end)
                    guard value.count >= 3, !Self.isPlaceholder(value), Self.shellWord.firstMatch(in: value) == nil,
                          quoted || !Self.isCall(value) else { continue }
                    found.append(secret(.password, nil, start, end))
                }
            }
        }
        if mentions("rabbitm", "net user", "http-basic", "+login", "register", "ejabberdctl", "prosodyctl", "mosquitto", "authorize", "samba-tool", "user add", "users add", "user create", "users create", "user upsert", "auth-pass", "createcredential", "modifycredential", "account add", "autologon", "drush", "isql", "alias set", "host add", "changepass", "remote:", "plocal:", "memory:", "remote :") {
            for match in Self.userThenPassword.matches(in: searchable) {
                // (Autologon's password is its last argument but `/accepteula`: OCR may split it
                // and glue the option to it, `RXGq RP6bWdmv_/accepteula`.)
                if slice(match.start, match.end).lowercased().contains("autologon") {
                    var end = match.end
                    while end < utf8.count, !Self.isLineBreak(utf8[end]), end - match.end < 256 { end += 1 }
                    if let glued = Self.autologonPassword.firstMatch(in: slice(match.end, end)), let range = glued.range(1),
                       let password = password(match.end + range.lowerBound, match.end + range.upperBound, quoted: false) {
                        found.append(password)
                        continue
                    }
                }
                let before = found.count
                add(after: match.end, dashStartsIt: true)
                // (OCR may split the password after a symbol, as a flag's, `… deploy MEOHKA! cgV2fkK`; round 162.)
                if found.count == before, let password = passwordSplitAfterASymbol(at: match.end) { found.append(password) }
                // (OCR may read a `_` of the user's name as a space, `drush user:password svc sync "…"`:
                // a piece of small letters, then the password.)
                if found.count == before, let rest = piece(from: match.end, maximumSpaces: 0), rest.start == match.end, rest.end - rest.start <= 16,
                   utf8[rest.start..<rest.end].allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }) {
                    add(after: rest.end, dashStartsIt: true)
                }
            }
        }
        if mentions("sqlplus", "sqlldr", "expdp", "impdp", "rman", "dgmgrl") {
            for match in Self.oracleLogin.matches(in: searchable) {
                var end = match.end, lastAt: Int?
                while end < utf8.count, end - match.end < 256, !Self.isSpace(utf8[end]), !Self.isLineBreak(utf8[end]) {
                    if utf8[end] == 0x40 { lastAt = end }
                    end += 1
                }
                if let lastAt { end = lastAt }
                let value = slice(match.end, end)
                guard value.count >= 3, !Self.isPlaceholder(value), Self.isPasswordValue(value, quoted: true) else { continue }
                found.append(secret(.password, nil, match.end, end))
            }
        }
        if mentions("--value", "--secret-") {
            for line in lines(mentioning: ["--value", "--secret-"]) {
                // The secret's name before the flag, or the command's word for it: the line's first
                // such word, looked for once (a line of many flags costs no more than its length).
                guard let name = Self.namesASecret.matches(in: searchable, within: [line]).first else { continue }
                for flag in Self.secretValueFlag.matches(in: searchable, within: [line]) where flag.start >= name.end {
                    add(after: flag.end)
                }
            }
        }
        if mentions(":cl:") {
            for match in Self.clearProxyUser.matches(in: searchable) { add(after: match.end, dashStartsIt: true) }
        }
        // (Shadow's empty last fields, `:::`, or its default maximum age: a cue most texts lack.)
        // (Or `/etc/passwd`'s `:/home/`, or a space OCR put after a colon: `…:0ps:/home/deploy: /bin/bash`.)
        if mentions(":::", "99999", ":/bin/", ":/usr/", ":/home/", ": /bin/", ": /home/", ": /usr/") {
            let asTyped = mentions("--show", "hash cracked", "hashes cracked", "newusers")
            for match in Self.accountLine.matches(in: searchable) {
                // (A field that starts with a scheme, Dovecot's `{PLAIN}…`, is ``schemeTaggedPasswords()``'s.)
                guard let field = match[1], let range = match.range(1), field.filter({ $0 == " " || $0 == "\t" }).count <= 2, !field.hasPrefix("{"),
                      Self.isClearAccountPassword(field.filter { $0 != " " && $0 != "\t" }, asTyped: asTyped) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        // (OCR may read `etcdctl` as `etcdetl`.)
        if mentions("etcd", "redis-cli", "6379>", "kv put", "user-secrets") {
            for match in Self.storePut.matches(in: searchable) {
                guard let key = match[1], let last = key.split(whereSeparator: { "/:.".contains($0) }).last,
                      let kind = Self.secretName(String(last)), let (start, end, quoted) = value(after: match.end), end > start,
                      case let value = squeezed(start, end), value.count >= 6, Self.isPasswordValue(value, quoted: quoted) else { continue }
                found.append(secret(kind, nil, start, end))
            }
        }
        if mentions("config set", "configure set") {
            for match in Self.configSet.matches(in: searchable) {
                // (At most 16 pieces: a line of many settings costs no more than that.)
                var index = match.end
                for _ in 0..<16 {
                    guard let name = piece(from: index, maximumSpaces: 4) else { break }
                    index = name.end
                    let bare = slice(name.start, name.end).split(whereSeparator: { "/:.".contains($0) }).last.map(String.init) ?? ""
                    // (One piece: the next may be the next setting's name. A split value's rest the detector
                    // takes as it takes any value's, ``extendedAcrossSpaces(_:)``.)
                    guard !bare.hasPrefix("-"), let kind = Self.secretName(bare), let piece = piece(from: name.end, maximumSpaces: 4) else { continue }
                    var start = piece.start, end = piece.end
                    let opening = quoteLength(at: start), closing = end - start > 4 ? quoteLength(endingAt: end) : 0
                    let quoted = opening > 0 && closing > 0
                    if quoted { start += opening; end -= closing }
                    let value = slice(start, end)
                    guard value.count >= 6, !value.hasPrefix("-"), Self.isRandomToken(value) || Self.isPasswordValue(value, quoted: quoted) else { continue }
                    found.append(secret(kind, nil, start, end))
                    index = end
                }
            }
        }
        if mentions("password_maps", "password maps", "password_ maps") {
            for match in Self.staticPasswordMap.matches(in: searchable) {
                guard let value = spacedValue(from: match.end, atMost: 2), let password = password(value.start, value.end, quoted: false) else { continue }
                found.append(password)
            }
        }
        if mentions("passwd.client") {
            for match in Self.eximClientLine.matches(in: searchable) {
                guard let range = match.range(1), let password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                found.append(password)
            }
        }
        if mentions("bundle") {
            for match in Self.bundlerCredentials.matches(in: searchable) {
                // (OCR may split the password twice, as it spaces a `!`: its pieces to the line's end.)
                guard let value = spacedValue(from: match.end, atMost: 3), let password = password(value.start, value.end, quoted: false) else { continue }
                found.append(password)
            }
        }
        if mentions(" login ", " auth ", " authtoken ", " enable ", " token ") {
            for match in Self.tokenLogin.matches(in: searchable, within: lines(mentioning: [" login ", " auth ", " authtoken ", " enable ", " token "])) {
                // (OCR may split the token: machine-made pieces to the line's end are its, and a
                // UUID's pieces split before a dash: `cbd73068-dddf -Odc9-…`.)
                guard var token = piece(from: match.end, maximumSpaces: 0) else { continue }
                // (A server's address may come first, the token after it: `immich login https://…/api
                // KEY`; the address is no part of it; round 157.)
                if slice(token.start, token.end).contains("://") {
                    guard let next = piece(from: token.end, maximumSpaces: 1), utf8[next.start] != 0x2D else { continue }
                    token = next
                }
                // (Or a scrap of one or two letters or digits between them: `…tTHbmA fdWhXZWBA5 j F8`;
                // of three ending the line, its digits read as letters: `…bb00d78f 26b64dbf fle`, also
                // right after a long token: `…e02a5falf Ort`.)
                if let rest = piecesToLineEnd(from: token.end, atMost: 4, maximumSpaces: 1), let last = rest.last,
                   case let joined = squeezed(token.start, last.end), joined.count <= 128,
                   rest.allSatisfy({ utf8[$0.start] != 0x2D && (isMachineMade($0.start, $0.end) || $0.end - $0.start <= ($0.end == last.end ? 3 : 2) && utf8[$0.start..<$0.end].allSatisfy(Self.isAlphanumeric)) })
                    && (rest.contains(where: { isMachineMade($0.start, $0.end) }) || rest.count == 1 && token.end - token.start >= 16 && isMachineMade(token.start, token.end))
                    || Self.noisyUUID.firstMatch(in: joined) != nil
                    // (Or pieces of letters and digits alone, none a word, that together are a random
                    // token of 32+, whatever each looks like: `Mp3jHwgpdRI LhvQ…F2t TVENKASOAWUNB`; round 157.)
                    || joined.count >= 32 && ([token] + rest).allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isAlphanumeric) && !isSentenceWord($0) })
                        && Self.isRandomToken(joined) {
                    token.end = last.end
                }
                // (OCR may read a `0` as `@` and its last glyph as a sign, `…cL18H®`: not in an
                // address, which has a dot; or read every digit as a letter: `cioslJSC…EEZOBK…`.)
                let value = squeezed(token.start, token.end)
                var read = Self.atsReadAsZeros(value)
                if !value.contains(".") {
                    while let last = read.last, !last.isASCII { read.removeLast() }
                }
                // (A command that takes only the token, `zrok enable`, may take a short one: 10+ letters
                // and digits, both cases, and a digit or two changes to a capital inside, as no
                // service's name is, `NetworkManager`; or one case, two digits or more and a letter
                // after a digit, `gvv03bxq008k`, as a name's number ends it, `postgresql15`.)
                let digits = read.filter(\.isNumber).count
                let short = match[2] != nil && (10...64).contains(read.count) && read.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
                    && (read.contains(where: \.isUppercase) && read.contains(where: \.isLowercase) && (digits > 0 || Self.caseChanges(read.utf8) >= 2)
                        || digits >= 2 && read.count - digits >= 4 && zip(read, read.dropFirst()).contains(where: { $0.isNumber && $1.isLetter }))
                guard Self.isRandomToken(read) || Self.isRandomLetters(read) || Self.noisyUUID.firstMatch(in: value) != nil || short,
                      piece(from: token.end, maximumSpaces: .max).map({ utf8[$0.start] == 0x2D }) ?? true else { continue }
                found.append(secret(.apiKey, nil, token.start, token.end))
            }
        }
        if mentions("socks", "http ", "raw ") {
            for match in Self.proxyListEntry.matches(in: searchable) { add(after: match.end, dashStartsIt: true) }
        }
        if mentions("[admins]") {
            for match in Self.adminsSection.matches(in: searchable) {
                // (To the next section.)
                for line in filledLines(below: match.end, atMost: 32, blankLineEnds: false, endsBefore: { $0 == 0x5B }) {
                    // (Its hashed entries, `-pbkdf2-…`, the detector drops as it drops every stored hash.)
                    guard let entry = Self.iniEntry.firstMatch(in: slice(line.start, line.end)), let range = entry.range(1),
                          case let start = line.start + range.lowerBound, let password = password(start, line.start + range.upperBound, quoted: true) else { continue }
                    found.append(password)
                }
            }
        }
        if mentions("-d '\"", "--data '\"", "--data-raw '\"", "-d ‘\"", "--data ‘\"") {
            for match in Self.jsonStringBody.matches(in: searchable) {
                guard let range = match.range(1), let password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                found.append(password)
            }
        }
        if mentions("chpasswd") {
            for match in Self.chpasswdLine.matches(in: searchable) {
                guard let value = match[1], Self.isPasswordValue(value, quoted: true), let range = match.range(1) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    // MARK: - An option and its value in a list

    /// An option that names a secret, then its value, as two quoted items of a list: a container's
    /// `args: ["--api-key", "…"]`, a Dockerfile's `CMD ["--token", "…"]`, Python's
    /// `subprocess.run(["mysql", "--password", "…"])` (round 153). Two characters or more after
    /// the dashes: `-p` alone names nothing.
    static let optionItem = TextMatcher(#"["'“”‘’](-{1,2}[A-Za-z][A-Za-z0-9_.\-]{1,40})["'“”‘’][ \t]*,[ \t]*(?=["'“”‘’])"#)

    func valuesAfterOptionItems() -> [Secret] {
        // (An item that is an option starts with a quote and a dash.)
        guard mentions("\"-", "'-", "“-", "‘-", "”-", "’-") else { return [] }
        return Self.optionItem.matches(in: searchable).compactMap { match in
            guard let option = match[1], let kind = Self.secretName(option), let (start, end, quoted) = value(after: match.end), quoted, end > start,
                  case let value = slice(start, end), !value.hasPrefix("$"), !value.hasPrefix("{"), Self.isPasswordValue(value, quoted: true) else { return nil }
            // (A key is random, a password need not be; a name or a path is neither.)
            if kind != .password, !(Self.isRandomToken(Self.withoutOCRJunk(value)) || Self.isRandomLetters(value) || Self.looksLikeSecretOnItsOwn(value)) { return nil }
            return secret(kind, nil, start, end)
        }
    }

    // MARK: - Network devices, Wi-Fi and clusters

    /// A network device's shared key in its config (Cisco's `tacacs-server host … key [0|7] …`,
    /// `radius-server … key …`, `crypto isakmp key … address …`, a key chain's `key-string …`,
    /// `ntp authentication-key N md5 …`; type 7 is reversible, so it is masked too): the value follows.
    static let deviceKeyTools = ["tacacs", "radius", "isakmp", "key-string", "authentication-key"]
    static let deviceKey = TextMatcher(#"(?i)(?<=[ \t])(?:key|key-string|md5)[ \t]+(?:[07][ \t]+)?(?=\S)"#)
    static let deviceKeyTool = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:tacacs-server|radius-server|tacacs[ \t]+server|radius[ \t]+server|crypto[ \t]+isakmp|key-string|ntp[ \t]+authentication-key)(?![A-Za-z0-9_\-])"#)
    /// A Wi-Fi password given to a command: Android's `cmd wifi connect-network SSID wpa2 …`, macOS'
    /// `networksetup -setairportnetwork IF SSID …` and `-addpreferredwirelessnetworkatindex IF SSID N
    /// SECURITY …`, Windows' `netsh wlan set hostednetwork … key=…`; the value follows.
    static let wifiJoin = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:cmd[ \t]+wifi[ \t]+connect-network[ \t]+\S{1,64}[ \t]+(?:wpa2|wpa3|wep)[ \t]+|-setairportnetwork[ \t]+\S{1,32}[ \t]+\S{1,64}[ \t]+|-addpreferredwirelessnetworkatindex[ \t]+\S{1,32}[ \t]+\S{1,64}[ \t]+\d{1,3}[ \t]+\S{1,16}[ \t]+|hostednetwork(?![A-Za-z])[^\n]{0,200}?(?<=[ \t])key[ \t]?=[ \t]?)"#)
    /// A WPS PIN given to `hostapd_cli` or `wpa_cli` (`wps_pin any 12345670`, `wps_reg BSSID PIN`,
    /// `wps_ap_pin set PIN`): group 1.
    /// (OCR may read the `_` as a space or put one after it: `wps_ pin`.)
    static let wpsPin = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])wps(?:_ ?| )(?:pin|reg|check_pin)[ \t]+(?:\S{1,64}[ \t]+)?(\d{4}[ \-]?\d{4})(?![\w\-])|wps_ap_pin[ \t]+set[ \t]+(\d{4}[ \-]?\d{4})(?![\w\-])"#)
    /// A cluster's join address with its token in the path (MicroK8s' `microk8s join
    /// HOST:25000/TOKEN/CERT-HASH`): the token, up to the next `/` (or its first piece when no `/`
    /// follows). (OCR may read a glyph before the command's name, `mMicrok8s join …`, and a `0` of
    /// the address as `@`, `10.@.8.21`.)
    static let joinPath = TextMatcher(#"(?i)(?:microk[8&]{1,2}s|(?<![A-Za-z0-9_\-])k8s)[ \t]+join[ \t]+[A-Za-z0-9.,@\-\[\]:]{1,255}:\d{2,5}/(?=[A-Za-z0-9@])"#)

    /// Cisco IOS' local accounts and enable password: `username NAME [privilege N] password 0 …`,
    /// `enable secret 0 …` (type 0 as typed, type 7 reversible; 5, 8 and 9 are hashes). OCR may
    /// read the `0` as `©`, `O` or `@`. The value runs to the line's end (OCR may split it once).
    static let iosAccount = TextMatcher(#"(?im)^[ \t]*(?:username[ \t]+\S{1,64}(?:[ \t]+privilege[ \t]+\d{1,2})?|enable)[ \t]+(?:password|secret)[ \t]+(?:[07©®@Oo][ \t]+)?(?![589][ \t])(?=\S)"#)

    /// A network device's account whose password is given after its encoding's word: Huawei's
    /// `local-user NAME password irreversible-cipher …` (also `cipher`, older `simple`), H3C's
    /// `password simple …` in a `local-user` view, HPE ProCurve's and Aruba switches' `password
    /// manager|operator [user-name NAME] plaintext …`; at the line's start or after the device's
    /// prompt (`[HUAWEI-aaa]`, `switch(config)#`). The value runs to the line's end (OCR may split it once).
    /// (OCR may read a `_` of the user's name as a space: `local-user svc sync password …`.)
    static let encodedAccountPassword = TextMatcher(#"(?im)(?:^[ \t]*|[\]>#][ \t]*)(?:local-user[ \t]+\S{1,64}(?:[ \t]\S{1,32})?[ \t]+)?password[ \t]+(?:(?:manager|operator)(?:[ \t]+user-name[ \t]+\S{1,64})?[ \t]+)?(?:irreversible-cipher|cipher|simple|plaintext)[ \t]+(?=\S)"#)

    /// A line of NTP's symmetric keys file (ntpd's `ntp.keys`, chrony's `chrony.keys`): a key's id,
    /// its type, the key (ASCII, or hexadecimal, chrony's maybe after `HEX:`), `1 SHA1 8788f3…`,
    /// `2 MD5 Jg8SBQlOwUeUbLIF`; the key to the line's end (OCR may split it). Only in a text that
    /// names such a file or its setting. (OCR may read `MD5` as `MDS`, `SHA1` as `SHAT`, `SHAl` or
    /// `SHA]`, the glyphs it reads for a `1`, put a space after `HEX:`, and a glyph between the id and
    /// the type, `1 = SHA256`, `1 =SHA256`.)
    static let timeKeyLine = TextMatcher(#"(?im)^[ \t]*\d{1,5}[ \t]+(?:[=\-_|:.,][ \t]*)?(?:M|MD[5S]|SHA(?:[1lIiT|\]!]|224|256|384|512)?|RMD160|AES(?:128|256)CMAC)[ \t]+(?:(?:HEX|ASCII)[ \t]?:[ \t]?)?(?=\S)"#)

    /// Keys of network devices, Wi-Fi passwords and WPS PINs given to commands, cluster join tokens,
    /// NTP's keys.
    func deviceKeys() -> [Secret] {
        var found: [Secret] = []
        // (OCR may put a space after the file's dot: `chrony. keys`.)
        if mentions(".keys", ". keys", "trustedkey", "keyfile") {
            for match in Self.timeKeyLine.matches(in: searchable) {
                // (OCR splits a long hexadecimal key often: up to sixteen pieces, one a glyph or two,
                // `95DB3B3DDEA9B3AF @7B5F 67BAE6C5B3690651 28CDDFF 9AF 65E8CE 1 AB8E3F 222B`.)
                guard let key = spacedValue(from: match.end, atMost: 16), key.value.count >= 8, !Self.isPlaceholder(key.value) else { continue }
                found.append(secret(.apiKey, nil, key.start, key.end))
            }
        }
        if mentions("username", "enable ") {
            for match in Self.iosAccount.matches(in: searchable) {
                guard let pieces = piecesToLineEnd(from: match.end, atMost: 2, maximumSpaces: 1), let first = pieces.first, let last = pieces.last,
                      let password = password(first.start, last.end, quoted: false) else { continue }
                found.append(password)
            }
        }
        if mentions("cipher ", "simple ", "plaintext ") {
            for match in Self.encodedAccountPassword.matches(in: searchable) {
                guard let pieces = piecesToLineEnd(from: match.end, atMost: 2, maximumSpaces: 1), let first = pieces.first, let last = pieces.last,
                      !isSentenceWord(first), let password = password(first.start, last.end, quoted: false) else { continue }
                found.append(password)
            }
        }
        if Self.deviceKeyTools.contains(where: { mentions($0) }) {
            for line in lines(mentioning: Self.deviceKeyTools) {
                guard let tool = Self.deviceKeyTool.matches(in: searchable, within: [line]).first else { continue }
                // (The first `key` from the tool on, `key-string` being both: a line of many costs one value.)
                guard let key = Self.deviceKey.matches(in: searchable, within: [line]).first(where: { $0.start >= tool.start }),
                      let password = passwordArgument(after: key.end, dashStartsIt: true) else { continue }
                found.append(password)
            }
        }
        if mentions("connect-network", "airportnetwork", "wirelessnetwork", "hostednetwork") {
            for match in Self.wifiJoin.matches(in: searchable) {
                if let password = passwordArgument(after: match.end, dashStartsIt: true) {
                    found.append(password)
                } else if match.text.trimmingCharacters(in: .whitespaces).hasSuffix("="), let key = spacedValue(from: match.end, atMost: 2),
                          utf8[key.start..<key.end].contains(where: Self.isSpace), !key.value.contains("="), Self.looksLikeSecretOnItsOwn(key.value),
                          let password = password(key.start, key.end, quoted: false) {
                    // (`hostednetwork`'s key, which `key=` names, OCR split once at the line's end, a
                    // scrap first: `key=Gi&! bnhqitHCOxhj`.)
                    found.append(password)
                }
            }
        }
        if mentions("wps_", "wps ") {
            for match in Self.wpsPin.matches(in: searchable) {
                guard let range = match.range(1) ?? match.range(2) else { continue }
                found.append(secret(.password, "PIN", range.lowerBound, range.upperBound))
            }
        }
        if mentions(" join ") {
            for match in Self.joinPath.matches(in: searchable) {
                var end = match.end
                // (OCR may read a `0` as `@` or a letter as a sign, `¢`, and split the token before
                // its `/`: up to six spaces, `…4ec581 8df Of 460f 3c90…/`, 80 bytes at most.)
                // (And read a glyph of it as a `/`, `…69acdb/23150e…` for `…69acdb723150e…`: the
                // token ends at the piece's last `/`, before the certificate's hash, when OCR split
                // nothing before the first; after a `/` a space ends the piece.)
                while end < utf8.count, Self.isAlphanumeric(utf8[end]) || utf8[end] == 0x40 || utf8[end] >= 0x80 { end += 1 }
                var next = end, spaces = 0, slash: Int?
                while next < utf8.count, next - match.end <= 80, spaces <= 6 {
                    let byte = utf8[next]
                    if byte == 0x2F {
                        slash = next
                        if spaces > 0 { break }
                        next += 1
                        continue
                    }
                    guard Self.isAlphanumeric(byte) || byte == 0x40 || byte >= 0x80
                            || byte == 0x20 && slash == nil && next + 1 < utf8.count && utf8[next + 1] != 0x20 && next > match.end else { break }
                    if byte == 0x20 { spaces += 1 }
                    next += 1
                }
                if let slash { end = slash }
                guard end - match.end >= 16 else { continue }
                found.append(secret(.apiKey, nil, match.end, end))
            }
        }
        return found
    }

    // MARK: - Files of accounts

    /// A Java properties file of accounts, as its name says (Jetty's `realm.properties`,
    /// ActiveMQ's and Karaf's `users.properties`, `credentials.properties`; OCR may put a space
    /// after the dot): group 1 opens its entries.
    static let accountsPropertiesFile = TextMatcher(#"(?i)(?<![A-Za-z0-9])(?:realm|users?|credentials?|passwords?|accounts?)[ ]?\.[ ]?properties(?![A-Za-z0-9])"#)
    /// An entry of such a file: `name: password[, role…]` or `name=password[, role…]`; group 1 the password.
    /// (OCR may split the password: `admin=u-HMyr2N! tNeQCc*`; roles follow a comma.)
    static let accountsEntry = TextMatcher(#"^[ \t]*[A-Za-z0-9_.@\-]{1,64}[ \t]?[:=][ \t]?([^\s,]{3,128}(?: [^\s,]{1,64}){0,2})[ \t]*(?:,[^\n]{0,256})?$"#)
    /// Jetty's obfuscated password (`OBF:1v2j1uum…`: anyone may turn it back); OCR may read its
    /// digits `1` as `i` or `l`, and put a space beside the colon.
    static let jettyObfuscated = TextMatcher(#"(?<![A-Za-z0-9])OBF ?: ?([0-9a-zA-Z|]{8,512})"#)
    /// HexChat's `servlist.conf`: a network's `N=` line, then its entries; `P=` is the server's password.
    static let hexChatPassword = TextMatcher(#"(?m)^[ \t]*P=(?=\S)"#)

    /// The passwords of accounts files shown as they are: a properties file of accounts, Jetty's
    /// obfuscated ones, HexChat's network list.
    func accountsFilePasswords() -> [Secret] {
        var found: [Secret] = []
        if mentions("obf") {
            for match in Self.jettyObfuscated.matches(in: searchable) {
                guard let range = match.range(1) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        if mentions("properties") {
            // (A name inside lines already read is not read again: each line is read once.)
            var walked = 0
            for file in Self.accountsPropertiesFile.matches(in: searchable) where file.start >= walked {
                // Its lines after the name, to the next prompt or blank line (at most 64).
                let lines = filledLines(below: file.end, atMost: 64, blankLineEnds: true, endsBefore: { $0 == 0x24 })
                walked = lines.last?.end ?? file.end
                for line in lines {
                    guard utf8[line.start] != 0x23, utf8[line.start] != 0x21,
                          let entry = Self.accountsEntry.firstMatch(in: slice(line.start, line.end)), let range = entry.range(1) else { continue }
                    // (A hashed one, `MD5:…`, `CRYPT:…`, is none; an obfuscated one is found above.)
                    let value = slice(line.start + range.lowerBound, line.start + range.upperBound)
                    guard !["MD5:", "CRYPT:", "OBF:"].contains(where: { value.uppercased().hasPrefix($0) }),
                          let password = password(line.start + range.lowerBound, line.start + range.upperBound, quoted: true) else { continue }
                    found.append(password)
                }
            }
        }
        if mentions("servlist", "hexchat", "xchat") || mentions("\nn=") && mentions("\ns=") {
            for match in Self.hexChatPassword.matches(in: searchable) {
                let line = nextFilledLine(after: match.end)
                guard let password = password(line.start, line.end, quoted: true) else { continue }
                found.append(password)
            }
        }
        return found
    }

    // MARK: - Secrets piped to a tool

    /// `echo` or `printf` and their options, before the literal they write.
    static let echoedLiteral = TextMatcher(#"(?<![A-Za-z0-9_\-])(?:echo|printf)(?:[ \t]+-[neE]{1,3})*[ \t]+(?=\S)"#)
    /// What reads a password or a secret on its standard input: `docker login --password-stdin`,
    /// `sudo -S`, `docker secret create`/`kubectl create secret` (`-` or `--from-file=/dev/stdin`),
    /// `passwd --stdin`, `smbpasswd -s`, `cryptsetup`, `vault`, `gpg --passphrase-fd`, `systemd-creds
    /// encrypt` (a credential read from `-`), a tool's `--set-password` (AnyDesk's), `kinit` (which
    /// reads the password from a pipe), Samba's `pdbedit -t` (`--password-from-stdin`), EncFS's
    /// `--stdinpass` and SSHFS's `-o password_stdin` (its `_` OCR may read as a space, or set apart
    /// by one: `password _stdin`). Also any tool the pipe runs whose name says it takes a password
    /// or a passphrase (`| wpa_passphrase HomeNet`, `| htpasswd -i …`, `| mkpasswd -s`,
    /// `| sudo keepassxc-cli …`). (Both round 141.) A store of secrets too: `| gcloud secrets
    /// versions add db-password --data-file=-`.
    static let secretReader = TextMatcher(
        #"(?i)^\|[ \t]*(?:sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*)?[A-Za-z0-9_.\-]*pass(?:phrase|wd|word|xc)(?![A-Za-z])|--password-stdin|systemd-creds[ \t]+encrypt|--set-password(?![A-Za-z\-])|(?<![A-Za-z])sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*S(?![A-Za-z])|(?<![A-Za-z])smbpasswd[ \t]+(?:-[A-Za-z]+[ \t]+)*(?-i:-[A-Za-z]*s)(?![A-Za-z])|(?<![A-Za-z])secrets?(?![A-Za-z])|(?<![A-Za-z])passwd(?![A-Za-z])|--stdin(?![A-Za-z])|(?<![A-Za-z])(?:cryptsetup|vault|kinit)(?![A-Za-z])|--passphrase-fd|(?<![A-Za-z])pdbedit[ \t]+(?:-[A-Za-z]+[ \t]+)*(?-i:-[A-Za-z]*t)(?![A-Za-z])|--password-from-stdin|--stdinpass|password[ \t]{0,3}_?[ \t]{0,3}stdin"#)
    /// `| tee` (maybe under `sudo`, maybe appending) and the file it writes: group 1.
    static let teeTarget = TextMatcher(#"^\|[ \t]*(?:sudo[ \t]+)?tee(?:[ \t]+-[a-z]+)*[ \t]+([^\s|;&>]{1,256})"#)
    /// Tools that encode or hash what they read (`| base64`, `| openssl enc`, `| sha256sum`).
    static let encoder = TextMatcher(#"(?i)(?<![A-Za-z])(?:base64|openssl|xxd|sha\d*sum|md5sum|gpg)(?![A-Za-z])"#)

    /// A literal written by `echo` or `printf` into a pipe to a tool that reads a password or a
    /// secret (``secretReader``): `echo '…' | docker login -u ci --password-stdin`, `printf '…' |
    /// docker secret create db -`. Into an encoder (`echo -n '…' | base64`, as a Kubernetes
    /// secret's value is made) the literal must look like a secret on its own: `echo -n hello |
    /// base64` is none. (`echo 'user:…' | chpasswd` has a rule of its own: only the password.)
    /// A literal a process substitution gives a tool as a file (`ldapmodify -y <(echo -n '…')`,
    /// `mysql --defaults-extra-file=<(printf …)`) is its secret when it looks like one on its own.
    func pipedSecrets() -> [Secret] {
        guard mentions("echo", "printf"), mentions("|", "<(", ">") else { return [] }
        var found: [Secret] = []
        for match in Self.echoedLiteral.matches(in: searchable) {
            guard var (start, valueEnd, quoted) = value(after: match.end), valueEnd > start else { continue }
            // Unquoted, the literal is one piece: the pipe comes after it.
            var end = quoted ? valueEnd : (piece(from: start, maximumSpaces: 0)?.end ?? valueEnd)
            var rest = end + quoteLength(at: end)
            while rest < utf8.count, Self.isSpace(utf8[rest]) { rest += 1 }
            // `printf`'s format first (`printf '%s' '…'`): the literal is the argument after it.
            // (Not when a pipe, a redirection or a list's `;` follows it: then it was the literal,
            // a `%` in a password, `printf 'Es4mhoou%zN' | docker secret create db_pw -`; round 132.)
            if utf8[match.start] == 0x70, utf8[start..<end].contains(0x25), rest < utf8.count, !Self.isLineBreak(utf8[rest]),
               ![0x7C, 0x3E, 0x3B, 0x26, 0x29].contains(utf8[rest]), let next = value(after: rest), next.1 > next.0 {
                (start, valueEnd, quoted) = next
                end = quoted ? valueEnd : (piece(from: start, maximumSpaces: 0)?.end ?? valueEnd)
                rest = end + quoteLength(at: end)
                while rest < utf8.count, Self.isSpace(utf8[rest]) { rest += 1 }
            }
            // Written to a file that its name says holds a password or a secret (`echo '…' >
            // ~/.vault_pass.txt`, `printf '%s' '…' > restic/password`).
            if rest < utf8.count, utf8[rest] == 0x3E {
                var target = rest
                while target < utf8.count, utf8[target] == 0x3E || Self.isSpace(utf8[target]) { target += 1 }
                if let file = piece(from: target, maximumSpaces: 0), Self.namesASecretsFile(slice(file.start, file.end)),
                   let password = password(start, end, quoted: quoted) {
                    found.append(password)
                }
                continue
            }
            // A group's commands (`(echo '…'; echo '…') | smbpasswd -s -a ana`): the
            // group's pipe, when only the group's end is between.
            if rest < utf8.count, utf8[rest] == 0x3B || utf8[rest] == 0x29,
               let pipe = utf8[rest..<min(utf8.count, rest + 200)].firstIndex(where: { $0 == 0x7C || Self.isLineBreak($0) }), utf8[pipe] == 0x7C,
               case let between = utf8[rest..<pipe], between.contains(0x29), !between.contains(0x3E) {
                rest = pipe
            }
            var before = match.start
            while before > 0, Self.isSpace(utf8[before - 1]) { before -= 1 }
            if before >= 2, utf8[before - 2] == 0x3C, utf8[before - 1] == 0x28, rest < utf8.count, utf8[rest] == 0x29 {
                let value = squeezed(start, end)
                if value.count >= 6, Self.isPasswordValue(value, quoted: quoted), quoted || Self.looksLikeSecretOnItsOwn(value) {
                    found.append(secret(.password, nil, start, end))
                }
                continue
            }
            guard rest < utf8.count, utf8[rest] == 0x7C else { continue }
            var lineEnd = rest
            while lineEnd < utf8.count, lineEnd - rest < 300, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
            let tool = slice(rest, lineEnd), value = squeezed(start, end)
            guard value.count >= 4, !tool.contains("chpasswd"), Self.shellWord.firstMatch(in: value) == nil,
                  Self.isPasswordValue(value, quoted: quoted) else { continue }
            // Piped to `tee` and a file its name says holds a password or a secret (`echo '…' | sudo tee
            // /var/ossec/etc/authd.pass`, Wazuh's; ``repeats(of:in:)`` masks the copy `tee` prints; round 156).
            if let file = Self.teeTarget.firstMatch(in: tool)?[1], Self.namesASecretsFile(file) {
                found.append(secret(.password, nil, start, end))
                continue
            }
            guard Self.secretReader.firstMatch(in: tool) != nil
                    || Self.encoder.firstMatch(in: tool) != nil && Self.looksLikeSecretOnItsOwn(value) else { continue }
            found.append(secret(.password, nil, start, end))
        }
        return found
    }

    /// Whether a file's path names a file of a password or a secret (`~/.vault_pass.txt`,
    /// `restic/password`, `api-token`, `secret.key`), not a public key's (`id_ed25519.pub`,
    /// `authorized_keys`).
    static func namesASecretsFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        guard !name.hasSuffix(".pub"), !name.contains("public"), !name.contains("authorized") else { return false }
        return ["pass", "pwd", "secret", "token", "credential", "private", ".key", "_key", "-key"].contains(where: name.contains)
    }

    /// `oathtool`, which prints the code of a 2FA secret given on its command line.
    static let oathtoolCommand = TextMatcher(#"(?<![A-Za-z0-9_\-])oathtool(?![A-Za-z0-9_\-])"#)

    /// `oathtool --totp -b KEY`: the key (base32 with `-b`, else hexadecimal) is its argument that
    /// is no option: 16+ letters and digits, which OCR may split with single spaces.
    func oathtoolKeys() -> [Secret] {
        guard mentions("oathtool") else { return [] }
        var found: [Secret] = []
        for match in Self.oathtoolCommand.matches(in: searchable) {
            var index = match.end, pieces = 0
            while let next = piece(from: index, maximumSpaces: .max), pieces < 12 {
                pieces += 1
                index = next.end
                // Options and their values (`--totp=SHA256`, `-d 8`, `-s 30s`).
                guard utf8[next.start] != 0x2D, next.end - next.start >= 4 else { continue }
                var end = next.end
                while let more = piece(from: end, maximumSpaces: 1), utf8[more.start..<more.end].allSatisfy(Self.isAlphanumeric) { end = more.end }
                let key = squeezed(next.start, end)
                guard key.count >= 16, key.utf8.allSatisfy(Self.isAlphanumeric) else { continue }
                found.append(secret(.apiKey, "2FA secret", next.start, end))
                break
            }
        }
        return found
    }

    // MARK: - Signed addresses

    /// A signed URL's signature parameter: S3's and Google Cloud Storage's `X-Amz-Signature`,
    /// `X-Goog-Signature`, CloudFront's `Signature`, Azure's SAS `sig`, and an STS session token;
    /// whoever has the address may use it until it expires. At a parameter's start (`?`, `&`,
    /// `;`, or the `é` OCR may read for an `&`), or a line's when the address is wrapped; OCR may
    /// put spaces or a dot in the name (`X-Amz - Signature`, `s ig`, `s.ig`, round 144; the `x` the line
    /// before took, `…?x` / `-goog-Signature=…`, round 153; `sig`'s `i` read as `t`, `l` or `1`:
    /// `s tg=`) and around the `=`, and a terminal may
    /// wrap the address inside the name (`…&sr=b&s` / `ig=qgd1…`; `…&si` / `=WXN…`, its `g` lost
    /// at the wrap). OCR may read the `&` before it as `a`, `6` or `8`, glued to the value before
    /// (`…&sr=basig=…` for `&sr=b&sig=`; round 132): after a parameter's value of 40 characters at most.
    /// (The look back only where an `s` follows: tried at every place, it cost some 2–3 % of detection time.)
    /// (A value of 1,100 bytes at most: Google Cloud Storage's V4 signature is 512 hexadecimal
    /// digits, an RSA key's 2,048 bits; 400 let it through, round 153.)
    static let signatureParameter = TextMatcher(
        #"(?im)(?:(?<=[?&;é])|(?=s)(?<==[A-Za-z0-9%:.\-]{1,40}[a68])|^[ \t]*)[ \t]?(?:x? ?- ?(?:amz|goog) ?- ?)?(?:s(?: |\.|\r?\n)?(?:i(?:(?: |\r?\n)?g(?:n ?a ?t ?u ?r ?e)?|(?=\r?\n=))|[tl1|] ?g(?=[ \t]?=))|security-token)(?:[ \t]|\r?\n)?=[ \t]?"#)

    func signatures() -> [Secret] {
        guard mentions("sig", "s ig", "s.ig", "si g", "s i g", "s\nig", "si\ng", "si\n=", "stg", "s tg", "slg", "s lg", "s1g", "s|g") else { return [] }
        return Self.signatureParameter.matches(in: searchable).compactMap { match in
            // To the next parameter or the line's end, across the spaces OCR put in the value
            // (`n4X WEG YfRW…`), but not into a sentence after it.
            // (A terminal may wrap the address inside the value, `…&sig=2auv4wa` / `MU625KES…%3D'`:
            // when it ends a wide line, unfinished (no padding's `=` or `%3D` at its end), it goes on
            // at the next line's start with a signature's rest, ``isSignatureRest(from:)``.)
            // (Google Cloud Storage's, 512 digits, wraps again and again: eight wraps at most; round 153.)
            var end = match.end, wraps = 0
            while true {
                var next = piece(from: end, maximumSpaces: end == match.end ? 0 : 1)
                // (The `=` may end the line, the value all on the next: `…?x-goog-signature=` / `fe7763…`.)
                if next == nil, wraps < 8, end > match.end || end < utf8.count && utf8[end] == 0x0A, let start = wrapStart(after: end), case let value = squeezed(match.end, end),
                   !value.hasSuffix("="), !value.uppercased().hasSuffix("%3D"), isSignatureRest(from: start), let first = piece(from: start, maximumSpaces: 0) {
                    wraps += 1
                    next = first
                }
                guard let next, next.end - match.end <= 1100 else { break }
                if let amp = utf8[next.start..<next.end].firstIndex(of: 0x26) {
                    end = amp
                    break
                }
                // (A piece of hexadecimal letters alone, `bbabaf`, is a signature's piece, not a word;
                // so is the value's first, right after its `=`, of eight letters at most, when a
                // machine-made piece follows it one space on: `s ig=Czcdt YGLXPm2NTmsa%2F…`, OCR's
                // split after the signature's first letters.)
                // (Or, when the first piece ends a wide line, the wrap's signature rest after it:
                // `&sig=Qjfshwe` / `3kRdXu1 e67F JtWZ…%3D"`; round 133.)
                let word = slice(next.start, next.end)
                let splitOff = next.start == match.end && word.count <= 8
                    && (piece(from: next.end, maximumSpaces: 1).map { isMachineMade($0.start, $0.end) } == true
                        || wrapStart(after: next.end).map(isSignatureRest) == true)
                // (Also with a `0` OCR read as `O` or `o`, a `1` as `l`: `Obcaf`, `fecal`; round 153.)
                guard word.count < 5 || Self.sentenceWord.firstMatch(in: word) == nil || word.allSatisfy({ ("a"..."f").contains($0) || "Ool".contains($0) }) || splitOff else { break }
                end = next.end
                // (The quote that closes the address ends it: `…%3D' ./orders.csv`; round 141.)
                if endBeforeClosingQuotes(next.end, notBefore: next.start) < next.end { break }
            }
            // (Not the quote that closes the address, nor the spaces OCR put before it: `…%3D '`.)
            end = endBeforeClosingQuotes(end, notBefore: match.end, spaces: true)
            guard end > match.end else { return nil }
            let value = squeezed(match.end, end)
            // 16+ characters, digits and letters mixed (hexadecimal, base64, maybe `%2F`-escaped).
            guard value.count >= 16, value.contains(where: \.isNumber), value.contains(where: \.isLetter), !Self.isPlaceholder(value) else { return nil }
            return secret(.apiKey, "signature", match.end, end)
        }
    }

    /// Where the next line starts when the line break at `index` (`\n`) ends a wide line
    /// (``endsAWideLine(_:)``) and the next line starts at its first column, as a terminal's wrap
    /// does; nil otherwise.
    func wrapStart(after index: Int) -> Int? {
        guard index + 1 < utf8.count, utf8[index] == 0x0A, endsAWideLine(index), !Self.isSpace(utf8[index + 1]) else { return nil }
        return index + 1
    }

    /// ``wrapStart(after:)`` for a line that ends at `index` or after spaces there.
    func wrapStart(afterSpacesFrom index: Int) -> Int? {
        var lineBreak = index
        while lineBreak < utf8.count, Self.isSpace(utf8[lineBreak]) { lineBreak += 1 }
        return wrapStart(after: lineBreak)
    }

    /// Whether the line at `start` goes on with a signature's rest: pieces a single space apart
    /// (OCR's), made of a signature's characters (base64's, base64url's, `%` escapes, and the `@`
    /// OCR reads for a `0`), 8+ of them together, up to the address's closing quote (the command
    /// may go on after it), the next parameter's `&` or the line's end, where a speck of one glyph
    /// may follow (`…%3D *`). Ten pieces at most.
    func isSignatureRest(from start: Int) -> Bool {
        var index = start, length = 0, junk = 0
        for _ in 0..<10 {
            guard let next = piece(from: index, maximumSpaces: index == start ? 0 : 1) else { return length >= 8 }
            let end = endBeforeClosingQuotes(next.end, notBefore: next.start)
            let closed = end < next.end
            if end - next.start == 1, !closed, !Self.isAlphanumeric(utf8[next.start]), piece(from: next.end, maximumSpaces: .max) == nil { return length >= 8 }
            // (A glyph of OCR's junk inside a piece is a letter it misread, `…3CQR}J%2B…` for `…3CQRj%2B…`:
            // two in the rest at most; round 141.)
            // (CloudFront's base64 has `~` for `=`: round 153.)
            let isSignatureByte = { (byte: UInt8) in Self.isAlphanumeric(byte) || "%+/=_-@~".utf8.contains(byte) }
            // (Or beyond ASCII, `…TélrJ4…`: one glyph each, its lead byte counted; round 153.)
            // (And a `.` OCR put inside, `…90809f.a5b97…`; round 153.)
            let isMisreadLetter = { (byte: UInt8) in byte < 0x80 ? Self.junkGlyphs.contains(byte) || byte == 0x2E : true }
            var bytes = utf8[next.start..<end]
            // (So are glyphs beyond ASCII that start the rest or a piece of it, `£%2BDab…%3D"` for
            // `f%2BDab…`, `¢€2248…`, `… a88732F7 £50c2e31…`: two at most; round 145, 153.)
            while let lead = bytes.first, lead >= 0xC0, junk < 2 {
                bytes = bytes.dropFirst().drop(while: { (0x80..<0xC0).contains($0) })
                junk += 1
            }
            // (The next parameter's `&` ends it: `…VMsaqfFkyDBvodU&Key-Pair-Id=…`, CloudFront's; round 153.)
            let ampersand = bytes.firstIndex(of: 0x26)
            if let ampersand { bytes = bytes[..<ampersand] }
            guard bytes.first.map(isSignatureByte) ?? true, bytes.dropFirst().allSatisfy({ isSignatureByte($0) || isMisreadLetter($0) }) else { return false }
            junk += bytes.dropFirst().filter({ !isSignatureByte($0) && !(0x80..<0xC0).contains($0) }).count
            guard junk <= 2 else { return false }
            length += (ampersand ?? end) - next.start
            if closed || ampersand != nil { return length >= 8 }
            index = next.end
        }
        // (Ten pieces of a signature's characters: a long one OCR split again and again; round 153.)
        return length >= 8
    }

    // MARK: - XML configuration

    /// An element whose name names a secret, and its text: Maven's `<password>…</password>`,
    /// `<apiKey>…</apiKey>`, `<client_secret>`; OCR may put spaces inside the tags, and in a name
    /// (`<passwor d>`). The opening tag may hold up to four attributes (FileZilla's `<Pass
    /// encoding="base64">`: a password in base64 is one); OCR may double an attribute's quote
    /// (`<param name="password"”>`), or read the closing tag's `/` as a space (`< password>`; round 154).
    /// Group 1 is the name, 2 the value.
    static let secretElement = TextMatcher(
        #"<[ \t]?([A-Za-z][A-Za-z0-9_.:\- ]{2,63}?)(?:[ \t]+[A-Za-z_][A-Za-z0-9_.:\-]{0,40}[ \t]?=[ \t]?["'“”]{1,2}[^"'“”<>\n]{0,64}["'“”]{1,2}){0,4}[ \t]?>[ \t]*([^<>\n]{1,256}?)[ \t]*<(?:[ \t]?/|[ \t])[ \t]?([A-Za-z][A-Za-z0-9_.:\- ]{0,63})>"#)
    /// An opening tag's `name` or `key` attribute, which names the element's text: Guacamole's
    /// `<param name="password">…</param>`, Java's `<entry key="db.password">…</entry>`.
    static let nameAttribute = TextMatcher(#"(?<![A-Za-z0-9_\-])(?:name|key)[ \t]?=[ \t]?["'“”]([A-Za-z][A-Za-z0-9_.:\-]{2,63})["'“”]"#)
    /// .NET's `appSettings`: `<add key="StripeApiKey" value="…" />`; a `name` and its `value` (JPA's
    /// `<property name="javax.persistence.jdbc.password" value="…"/>`, OCR may space the name after
    /// a dot). Group 1 the name, 2 the value.
    static let settingEntry = TextMatcher(
        #"(?i)\b(?:key|name)[ \t]?=[ \t]?["'“”]{1,2}([A-Za-z](?:[A-Za-z0-9_.:\-]|(?<=\.) ){2,63})["'“”]{1,2}[ \t]+value[ \t]?=[ \t]?["'“”]{1,2}([^"'“”\n]{1,256})["'“”]"#)

    func xmlValues() -> [Secret] {
        guard mentions("</", "value"), mentions("pass", "pwd", "secret", "token", "key") else { return [] }
        var found: [Secret] = []
        for (index, matcher) in [Self.secretElement, Self.settingEntry].enumerated() {
            for match in matcher.matches(in: searchable) {
                // (Either tag's name: OCR may misread one, `<ApikKey>…</Apikey>`.)
                var names = [match[1], index == 0 ? match[3] : nil].compactMap { $0?.replacingOccurrences(of: " ", with: "") }
                // (Or the opening tag's `name` attribute: `<param name="password">`.)
                if index == 0, let valueStart = match.range(2)?.lowerBound, let attribute = Self.nameAttribute.firstMatch(in: slice(match.start, valueStart))?[1] {
                    names.append(attribute)
                }
                // (Windows' answer files keep a password as the `<Value>` of a `<Password>` or
                // `<AdministratorPassword>` element.)
                let enclosing = names.contains { $0.lowercased() == "value" } ? enclosingElementName(before: match.start) : nil
                guard let kind = names.lazy.compactMap({ Self.secretName($0) }).first ?? enclosing.flatMap({ Self.secretName($0) }), let value = match[2],
                      let range = match.range(2),
                      !Self.isPlaceholder(value), Self.templateVariable.firstMatch(in: value) == nil else { continue }
                // The element delimits the value as quotes do; a key must still be one (no word, no name).
                let holds = kind == .password ? Self.isPasswordValue(value, quoted: true)
                    : Self.isSecretLiteral(value) || Self.isRandomToken(value.filter { $0 != " " })
                guard holds else { continue }
                found.append(secret(kind, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    /// The name of the element opened just before `index` (on its line or the one above), if its
    /// opening tag is the last thing there: `<AdministratorPassword>` above `<Value>…</Value>`.
    func enclosingElementName(before index: Int) -> String? {
        let from = max(0, index - 160)
        return Self.lastOpeningTag.firstMatch(in: slice(from, index))?[1]
    }

    static let lastOpeningTag = TextMatcher(#"<[ \t]?([A-Za-z][A-Za-z0-9_.:\-]{2,63})[ \t]?>[ \t]*\r?\n?[ \t]*$"#)

    /// An element's opening tag whose name is followed by its attributes (group 1 the name).
    static let elementOpening = TextMatcher(#"<[ \t]?([A-Za-z][A-Za-z0-9_.:\-]{2,63})(?=[ \t\r\n])"#)
    /// An attribute in an opening tag, its name as OCR may split it (group 1 the name, 2 the value).
    static let attributeValue = TextMatcher(#"([A-Za-z_][A-Za-z0-9_.:\- ]{0,40}?)[ \t]?=[ \t]?["'“”]([^"'“”<>\n]{16,512})["'“”]?"#)

    /// The random values in the opening tag of an element named for a key, whatever their
    /// attributes' names: ASP.NET's `<machineKey validationKey="…" decryptionKey="…" validation="HMACSHA256" />`,
    /// whose names OCR splits or misreads (`decryptionK ey=`, `decrypt tonKey=`). A key's element
    /// holds keys and its algorithms' names, which are no random tokens; an attribute named for a
    /// public value (`fingerprint=`, `keyId=`) stays.
    func keyElementAttributes() -> [Secret] {
        guard mentions("key"), mentions("<") else { return [] }
        var found: [Secret] = []
        for match in Self.elementOpening.matches(in: searchable, within: lines(mentioning: ["key"])) {
            guard let name = match[1], ["key", "keys"].contains(Self.nameWords(name).last ?? "") else { continue }
            // The opening tag runs to its `>` (2,000 bytes at most: a line of many tags costs that each).
            var close = match.end
            let limit = min(utf8.count, match.end + 2_000)
            while close < limit, utf8[close] != 0x3E, utf8[close] != 0x3C { close += 1 }
            for attribute in Self.attributeValue.matches(in: slice(match.end, close)) {
                guard let range = attribute.range(2), let attributeName = attribute[1],
                      !Self.nameWords(attributeName.replacingOccurrences(of: " ", with: "")).contains(where: { Self.wordsAboutAPublicValue.contains($0) || $0 == "keyid" }) else { continue }
                let start = match.end + range.lowerBound, end = match.end + range.upperBound
                guard Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, end))) else { continue }
                found.append(secret(.apiKey, nil, start, end))
            }
        }
        return found
    }

    // MARK: - Product and licence keys

    /// A product or licence key's label (`Product key:`, `Enter a product key`, `License key`).
    static let licenceKeyLabel = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:product|licen[cs]e|activation|serial|registration|cd|install(?:ation)?)[ \t]*key[ \t]*(?:[:#=]|is)?[ \t]*"#)
    /// The key: groups of 4–8 capitals and digits joined by dashes (Windows' `XXXXX-XXXXX-XXXXX-
    /// XXXXX-XXXXX`, most software licences), spaces taken out; OCR may read a `J` as `]` or `)`,
    /// a dash as a long one.
    static let licenceKeyShape = TextMatcher(#"^[A-Z0-9\]\[|(){}!]{4,8}(?:[\-–—][A-Z0-9\]\[|(){}!]{4,8}){2,7}$"#)

    func licenceKeys() -> [Secret] {
        guard mentions("key") else { return [] }
        return Self.licenceKeyLabel.matches(in: searchable, within: lines(mentioning: ["key"])).compactMap { match in
            // The pieces after the label while they hold only a key's characters (OCR may put a
            // space beside a dash or inside a group: `V26CY-Y GHWT-…`).
            var end = match.end
            // (A key is 80 characters at most: a line of many labels costs no more than that each.)
            while let next = piece(from: end, maximumSpaces: end == match.end ? 0 : 1), next.end - match.end <= 96,
                  utf8[next.start..<next.end].allSatisfy({ Self.isAlphanumeric($0) && !(0x61...0x7A).contains($0) || $0 == 0x2D || Self.keyGlyphs.contains($0) || $0 >= 0x80 }) {
                end = next.end
            }
            let key = squeezed(match.end, end)
            // Letters and digits both: a key, not a list of numbers or of words in capitals.
            guard end > match.end, Self.licenceKeyShape.firstMatch(in: key) != nil, key.contains(where: \.isNumber),
                  key.filter(\.isLetter).count >= 4 else { return nil }
            return secret(.apiKey, "product key", match.end, end)
        }
    }
}

extension SecretScan {
    // MARK: - Bundler's credentials for a gem source

    /// Bundler's credentials for a gem source, given in a variable named for its host
    /// (`BUNDLE_GEMS__CONTRIBSYS__COM: user:password`, `__` for each `.`, which OCR may read as
    /// a space or split: `BUNDLE GEMS _CONTRIBSYS COM`) or by `bundle config` (`bundle config set
    /// --global gems.contribsys.com user:password`); group 1 the variable's last part (the host's
    /// ending, ``hostEndings``), group 2 the host `bundle config` names, group 3 the pair.
    /// (Each separator matches one way only: a run of parts with a tail that fails costs its length,
    /// not two to the power of its parts.)
    static let bundlerCredential = TextMatcher(#"(?<![A-Za-z0-9])(?:BUNDLE(?:_ ?| _?)(?:[A-Z0-9\-]+(?: ?_{1,3} ?| ))+([A-Z]{2,6})|bundle[ \t]+config(?:[ \t]+set)?(?:[ \t]+--(?:global|local))?[ \t]+((?:[a-z0-9\-]+\.)+[a-z]{2,6}))[ \t]*[:= \t][ \t]*["']?([^\s:"']{2,64}[ \t]?:[ \t]?[^\s"']{3,128}?)["']?(?=\s|$)"#)
    /// The last parts of a host's name that say a variable is named for a host (`…__COM`, `…__IO`).
    static let hostEndings: Set<String> = ["COM", "IO", "ORG", "NET", "DEV", "CO", "APP", "CLOUD", "TECH", "AI", "SH", "XYZ"]

    /// The password of ``bundlerCredential``'s `user:password` pair, and the user's part when it is
    /// machine-made too, a licence's key (Sidekiq Pro's `c6748e0d:ed420746`); a user's name stays
    /// (round 156).
    func bundlerCredentials() -> [Secret] {
        guard mentions("bundle") else { return [] }
        return Self.bundlerCredential.matches(in: searchable).compactMap { match in
            guard match[1].map({ Self.hostEndings.contains($0) }) ?? (match[2] != nil), let pair = match[3], let range = match.range(3),
                  !Self.isPlaceholder(pair), Self.templateVariable.firstMatch(in: pair) == nil,
                  let colon = utf8[range].firstIndex(of: 0x3A) else { return nil }
            var start = colon + 1
            while start < range.upperBound, Self.isSpace(utf8[start]) { start += 1 }
            guard start < range.upperBound, Self.isPasswordValue(slice(start, range.upperBound), quoted: false) else { return nil }
            let user = slice(range.lowerBound, colon).trimmingCharacters(in: .whitespaces)
            let machineMadeUser = user.count >= 8 && user.contains(where: \.isNumber) && user.contains(where: \.isLetter) && !user.contains("@")
            return secret(machineMadeUser ? .apiKey : .password, nil, machineMadeUser ? range.lowerBound : start, range.upperBound)
        }
    }
}

extension SecretScan {
    // MARK: - A long random argument

    /// A command's line: a prompt's mark (`$`, `#`, `%`, `>`, `❯`), maybe after a user's, a host's
    /// or a path's characters (`ana@box:~/src$`), then the command in small letters.
    static let commandLineStart = TextMatcher(#"(?m)^[ \t]*(?:[^\s$#%>❯]{1,64})?[$#%>❯][ \t]+(?=[a-z])"#)

    /// An argument of a command that is a long random run of letters and digits, whatever the command
    /// (Storj's `uplink access import NAME GRANT`, Coolify's `context add NAME URL N|TOKEN`; round 160):
    /// 48+ characters (a Laravel Sanctum token's 32+ after its `N|`), both cases and digits, many case
    /// changes, as no word, name, path, hash (one case) or public address is (Bitcoin's and Solana's
    /// are 44 at most, an IPFS content id 46). OCR splits such a run with spaces, scraps of a glyph
    /// or two among its pieces, and a terminal wraps it over lines: its pieces (a word of five letters
    /// at most between two of them) to the first word, option or other symbol, over wide lines.
    /// (A public key's base64 after its type, `ssh-ed25519 AAAAC3…`, is none.)
    func longRandomArguments() -> [Secret] {
        guard mentions("$", "#", "%", ">", "❯") else { return [] }
        var found: [Secret] = []
        for match in Self.commandLineStart.matches(in: searchable) {
            guard let command = piece(from: match.end, maximumSpaces: 0) else { continue }
            var index = command.end
            // (At most 48 arguments a line: a line of thousands costs no more.)
            for _ in 0..<48 {
                guard let argument = piece(from: index, maximumSpaces: .max) else { break }
                index = argument.end
                // (The pieces a run took are no start of another: a line of thousands of pieces that
                // are not random enough together is read once, not once for each.)
                guard let run = randomRun(from: argument) else { continue }
                if run.isKey { found.append(secret(.apiKey, nil, run.start, run.end)) }
                if utf8[argument.start..<run.end].contains(where: Self.isLineBreak) { break }
                index = max(index, run.end)
            }
        }
        return found
    }

    /// The run ``longRandomArguments()`` takes from `first`, when `first` starts one, and whether
    /// it is a key.
    func randomRun(from first: (start: Int, end: Int)) -> (start: Int, end: Int, isKey: Bool)? {
        // (A Sanctum token's id and `|` first.)
        var bodyStart = first.start
        while bodyStart < first.end, bodyStart - first.start < 10, (0x30...0x39).contains(utf8[bodyStart]) { bodyStart += 1 }
        let sanctum = bodyStart > first.start && bodyStart < first.end && utf8[bodyStart] == 0x7C
        if sanctum { bodyStart += 1 } else { bodyStart = first.start }
        // A piece's letters and digits, and the glyphs OCR misreads some of them as (`é`, `$`, `@`, a
        // bracket), one in six at most; a quote or punctuation may end it.
        func body(_ start: Int, _ end: Int) -> (end: Int, junk: Bool)? {
            var bodyEnd = end
            if case let quote = quoteLength(endingAt: end), quote > 0, end - start > quote {
                bodyEnd -= quote
            } else if bodyEnd - start > 1, ",.;:".utf8.contains(utf8[bodyEnd - 1]) {
                bodyEnd -= 1
            }
            guard bodyEnd > start, case let bytes = utf8[start..<bodyEnd], bytes.allSatisfy(Self.isTokenLetterOrJunk),
                  bytes.count(where: { !Self.isAlphanumeric($0) }) * 6 <= bytes.count else { return nil }
            return (bodyEnd, bodyEnd < end)
        }
        // The first piece is machine-made on its own: 8+ letters and digits, both cases and a digit
        // (after a Sanctum token's `N|`, which says what follows, both cases will do: `JffVJSSUwXmF jl …`).
        guard let head = body(bodyStart, first.end), head.end - bodyStart >= 8,
              case let bytes = utf8[bodyStart..<head.end], sanctum || bytes.contains(where: { (0x30...0x39).contains($0) }),
              bytes.contains(where: { (0x41...0x5A).contains($0) }), bytes.contains(where: { (0x61...0x7A).contains($0) }) else { return nil }
        if utf8[bodyStart..<min(head.end, bodyStart + 4)].elementsEqual("AAAA".utf8)
            || Self.keyTypeBefore.firstMatch(in: slice(lineStart(of: first.start, atMost: 200), first.start)) != nil { return nil }
        // Punctuation after a piece ends the run, unless the piece ends a line the terminal wrapped
        // (OCR's glyph for the key's next one: `…8 lwwE foL,` / `XV9kKWj …`).
        func endsTheRun(_ piece: (start: Int, end: Int), _ junk: Bool) -> Bool {
            junk && (self.piece(from: piece.end, maximumSpaces: .max) != nil || wrapStart(afterSpacesFrom: piece.end) == nil)
        }
        var end = first.end, kept = head.end
        var junkEnded = endsTheRun(first, head.junk)
        // (24 pieces and 8 lines at most.)
        var pieces = 0, lines = 0
        while pieces < 24, !junkEnded {
            pieces += 1
            var next = piece(from: end, maximumSpaces: 2)
            if next == nil {
                guard lines < 8, let wrap = wrapStart(afterSpacesFrom: end), let start = piece(from: wrap, maximumSpaces: 0) else { break }
                next = start
                lines += 1
            }
            guard let next, let rest = body(next.start, next.end) else { break }
            // A piece of the key holds a digit, or both cases and no word (`ygwgrwnQt`, not `secretKey`);
            // a piece of five letters at most may be a scrap of it when more of it follows (`vuvj`, `j`);
            // any other ends the run (`Imported`, `STATUS`).
            let bytes = utf8[next.start..<rest.end]
            let mixed = bytes.dropFirst().contains(where: { (0x41...0x5A).contains($0) }) && bytes.contains(where: { (0x61...0x7A).contains($0) })
            if bytes.contains(where: { (0x30...0x39).contains($0) }) || mixed && !Self.holdsAWord(bytes) {
                kept = rest.end
            } else if bytes.count > 5 { break }
            end = next.end
            junkEnded = endsTheRun(next, rest.junk)
        }
        let value = Self.withoutOCRJunk(squeezed(bodyStart, kept))
        // (Random characters put capitals side by side, and few small letters in a row: not words
        // joined in camel case, `shopFrontendDeploymentController8 MyVeryLongResourceName…`.)
        let smallRuns = value.split(whereSeparator: { !$0.isLowercase })
        let isKey = value.count >= (sanctum ? 32 : 48) && Self.isClearlyRandom(value) && Self.caseChanges(value.utf8) * 12 >= value.count
            && Self.capitalPairs(in: value) * 40 >= value.count && smallRuns.reduce(0, { $0 + $1.count }) <= smallRuns.count * 3
        return (first.start, kept, isKey)
    }
}
