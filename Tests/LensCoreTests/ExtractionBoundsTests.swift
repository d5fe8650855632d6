import Foundation
@testable import LensCore
import Testing

/// Texts made to cost the most (thousands of labels on one line, runs with no space, numbers in
/// groups) are read at a cost linear in their length, and what they hold is still found. Their
/// times, and their growth with size (where a quadratic cost shows), are measured by `lens-bench
/// hostile-text`; here each text must finish (the time limit guards against a hang, it is no speed
/// goal) and give the right answer. The limit is generous: it is a hang's guard, and the suite runs
/// beside the whole debug-built test run on CI's two cores.
@Suite(.timeLimit(.minutes(10)))
struct ExtractionBoundsTests {
    let detector = SecretDetector()

    func value(_ secret: Secret, in text: String) -> String {
        String(decoding: Array(text.utf8)[secret.start..<secret.end], as: UTF8.self)
    }

    /// A line of one label repeated a thousand times or more, then a real secret on the next line.
    /// The line is longer than the most any rule reads at once (8 KB, a PEM block's; a piece is
    /// 1 KB, an anchored match 4 KB), so every cut a rule makes is crossed; longer only costs time
    /// (at 30 KB, 16 minutes of CI's 30 in a debug build).
    static let labelUnits = ["token:\"", "token:", "password=", ";Password=", "secret: \"a ", "Password\t", "API_KEY=sk-", "$ cat auth", "curl ", "curl -b 'a=b; ",
                            "bash: Xk2#Lm9Q: command not found ", "ACL SETUSER a +get ~k:*", "ss://Y2hh Y2hh ", "dig -y a:b ", "cccccclrnhbgfkdtuvj ",
                            "-H 'X-Api-Token: a", "Authorization: Token token=", "REDIS_AUTH=", "Service  Username  Password  ", "$ keys create ",
                            "$db_pass = ", "-a u:Xk2#Lm9Q ", "New value: ", "ID  Token  User Name  ",
                            "<machineKey a=\"", "\"bearer\": {\n", "createUser a SHA ", "Accessor ID\nSecret ID = ", "/msg NickServ IDENTIFY ",
                            "\"Name\": \"/a/b_password\",\n", "/connect a.io 6697 ", "KEY FOUND! [ ", "--auth=", "a:CL:", "network_key: [1, ",
                            "a:b:1:2:3:4:\n", "# client  server  secret\n", "$ hashcat --show\n$krb5tgs$23$*a$", "trojan://", "vless://a",
                            "define('A_KEY', '", "export CF_Key=", "[+] A\\b:", "tacacs-server key ", "wps_pin any ", "microk8s join a:25000/",
                            "impacket-psexec 'A/b:", "[*] DefaultPassword\n", "# realm.properties\n", "OBF:", "configure set secretKey ",
                            "WiFi.begin(\"a\", \"", "new PDO($d, 'a', '", "Authorization = \"Bearer a", "--auth-pass\nword ", "base64: ", "/a:b /pass ",
                            "EXEC sp_addlogin 'a', '", "1 MD5 Xk2#Lm9Q # ntp.keys\n", "a:b: Xk2#Lm9Q passwd.client\n", "\"a\" \"Xk2#Lm9Q\" userlist\n",
                            "bundle config a.io u:", "password_maps = static:u:", "-p 'Xk2#Lm9Qw' -c 'Xk2#Lm9Qv' ",
                            "set a b c d e f g h i j k l m n o p q r s t u v plaintext-password Xk2#\nLm9Q_K\n", "bindpw -Xk2#Lm9 Qw\n",
                            "export OP SESSION a=", "drush user:password a b ",
                            "$ a --token-file b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 --name\nrunner-01\n",
                            "--api-key sk_live_Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKq\nVb7qLm2Xz9Kw4NcB&\n", "--user \u{2018}'a@b.io:",
                            "$ cat vusers.txt passwd.client\na\n", "a.b. c:d:", "Net::SMTP.start('a', 1, 'b', 'c', 'Xk2#Lm9Qw, ",
                            "$ a --instance https://git.acme.io/a/b/c/d/e/f/g/h/i/j --token Xk2Lm9QwVb7qLm2Xz9Kw4\nNcBdHs7 --name ",
                            "--user a@b. c:", "$ hashcat --show\nSkrb5tgs$23$*a$", "encrypted-password \"$6$a\u{00A7}", "AKIAQYLPMN5HFIQR7ABC/",
                            "rman target a/b@c@", "Pre-Shared Key: APL! pf7_f\n", "set a b c d e f g h i j k l m n o p q r s t u v authentication-password Xk2!?m\n#Lm9Q#\n",
                            "1 SHAT 4a7c2e9f10b3d58e6f2a9c1b7d3e5f8a0c4d2e6f91 ntp.keys\n2 MD5 ", "--user \u{2018}a _b@c.io:",
                            "--api-key sk_test_Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKq\nVb7 qLm2Xz9Kw4NcB\n",
                            "$ cat a.secrets\nops: ifQRBSRXbOXULO\n",
                            "$ a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 --token VbqLmXzKwNcBdHsFgJy\nTaKqWmPZ7x3nVb8rT1cY --name r\n",
                            "--user 'a@b.io:Xk2#Lm9Qw'\u{2019} ", "client.username pw_set(\"a\", \"", "dotenv: //:key_7c1d9e@a4b2f8e6d0c3b5a7f9e1d2c4b6a8f0e2 ",
                            "1 =SHA1 HEX: 4a7c2e9f10b3d58e6f2a9c1b7d3e5f8a0c4d2e6f91 chrony.keys\n", "new PDO($d, 'a', 'Xk2#Lm9Qw); ",
                            "Net::SMTP.start('a', 1, 'b', 'c', Xk2#*Lm9Qw', ", "$ cat a.secrets\nops: ! ", "microk8s join 1.@.2:25000/",
                            "define( 'A_SALT', 'Xk2(Lm9]Qw;' ) 5;\n", "base64: Xk]2Lm9Qw", "[x] DefaultPassword\n(a) : ", "hashcat\n\u{20AC}\u{20AC}4c1d9e: ",
                            "encrypted-password \"S6$Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqWmPZx3 ",
                            "new PDO(a, \u{2018}b\u{2019}, **Xk2#Lm9 Qw\u{2019} ", "microk8s join a:25000/4e9a 1c7f 2b8d 03e6 a5f ", "$ cat psk.txt\na:4c1d9e7a2b8f03e6a5f9 boc ", "passwd.client\n* a.b: c@d. e: ",
                            "secret: Xk2+Lm9/QwVb7qLm2X /a /b= ", "hashcat\n4c1d9eS3e6a5f9c1b7d2: ", "-u a -p 'Xk2_9' ", "encrypted-password \"S6SXk2Lm9Qw",
                            "list.txt\n\"a\" \"Xk2#Lm9Q\"\n", "hashcat\n4c1d9eQ3e6a5f9c1b7d2h: ", "--query value -o tsv\nab Xk2+Lm9\n",
                            "a.password=Xk2 -Lm9Q\n", "a: Xk2#@tcp (",
                            "--auth-password\n'Xk2+Lm9Q'\n", "hysteria2: // Xk2! Lm9Qa.b",
                            "password: !FhvhOOVjb\n", "bindpw 7! kQ\n", "https://a.b:8443?c=d ",
                            "--proxy-auth a:&L\u{201C}V", "admin: Qm7vXk2Lp9RtZa4Wq8 / Bn",
                            "-p ' Xk2", "bindpw 7-kQ2! lp\n", "Passphrase=Xk2* -kpLt - \n",
                            "chrony.keys\n1 SHA256 HEX: 4A 1B ", "-p '73 kqLm", "a:Xk2! @tcp(", "hashcat\n4c#1d9e7a2b8f03e6a5: ",
                            "--token kWzRpLmTxVbQ hY\n", "pypi-AgEIcHlwaS5vcmcwQk7TnRmx2Vd9LpZb4Wc\nQRWf k dT\n",
                            "EXEC sp_addlogin 'a', Xk2\u{201C}Lm9\u{2019}, ", "authentication-password Qk\nWZR Qk%\n", "pvk2pfx -pi QQRXWTLkz ", "encrypted-password \"S6S$Kq$",
                            "EXEC sp_addlogin abc\u{2019}, \u{2018}", "--token 7kqZ0RWvmtPLxBcye\n4gh3Z7W Mv --n\n",
                            "Net::SMTP.start('a', 1, 'b', 'c', Qm;, ", "/Action:Export\n/SourcePassword:Qm /T:a\n",
                            "--access-token k7wq2rzd9mQxpt3b8v hcs jdzq\n",
                            "--access-token kwqtrzdm Qx ", "password \"$6$kQ7\u{00A3}",
                            "--api-key sk_test_Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKq, p ",
                            "Net::SMTP.start('a,, 1, 'b', 'c', 'Xk2#Lm9Qw,, ", "base64: Xk2.Lm9Qw. ",
                            "ntp.keys\n1 SHA] 3c9e ", "/a:b /SourcePassword:Xk2\nW _Lm9 ", "a://:key_3c9e5a1f7b@d24e8a6c 2f9b13d5 ",
                            "Net::SMTPsstart('a', 1, 'b, 'c', 'Xk2#Lm9Qw, ", "--access-token k6/wq2rzd9mqxpt3b8v wtkzqlmp ", "k7QwLm2RtZx9VbNpHcGrnPw==$Xk2 ", "vless://3c9e - 7b0 - d24e - 8a6c - 2f Q9 ", "define( 'A_SALT', /Xk2{Lm9' ", "AUTH PLAIN AGx.bmF", "remote_password KVSTRMQD", "bundle config a.io b:q! ! ", "export A _B _Key=", "--proxy-auth a:k m7 ", "Net:SMTP.start('a', 1, 'b', 'c', '", "sk_test_Qx7Lm2Rt9VbNpHcGrnPwKz4TsYd8EfJh3AqWm6ZuXo1BiC5DgFkLn0MrSe AWq jz ", "Pre-Shared Key: eolstslote", "{SHA512-CRYPT }$6$Qw7R$Lm. K.T4&mW ", "remote password Wkrp_ 7m", "sk_test_Rq4WmZ7TxL2pKvN9cBd3HsJf6GyQ8aEu1MnXo5Vi F27 kq8ZLm\nRM7Q ", "-setairportnetwork a b QRTu! ", "secret: /Qm7Rt2vXk9LpWz4Nb8HcJ5sYd3Fg6 Kel a= ", "svc:Qz !! RTX4a@)tcp", "\"SCRAM-SHA-256$4096 : Kq 2vPw=$Zm4R", "Net::SMTP.start('a', 1, 'b', 'c', 'qwx_RTM;;, ", "[+] A\\b:Tq WmPx ", "hysteria2: //a@b_c*javpn.", "AUTH PLAIN AGx\u{00A9}bmF", "cat /etc/a. secrets\n", "vless: //@f3a9 ", "bundle config a,b. c d:", "password=Kq ! -Tm! ", "cat /etc/psk. txt\na: b c d e ", "$6$Rk2$Qw7e@L 3s. R .9Q", "--token Rk7Pw\nv@Hc --name a", "\"a\"\u{201D} \"b", "pass show a\nhyct ?rk", "cat a.secrets\nb:KtRw_", "/A:b /SourcePassword:\nB%S1 ", "base64: Kq7R xX", "password \"S6SQp|L", "sk_test_Kq7RmTzX2wLpNvB9HcYdFsJ4GuQa8Ek p QWR", "-pi wqz_ 5Kmt+Rx2 ", "npm_r$Kq@Tm@Vh. |", "encryptionkKey: ae76", "/A:b /SourcePassword:QWrt Zk /T:", "psexec 'A/b:hU!9 @", "a: //:k_7f@e9152a0c4b8d61f3e27a9c05d4b1e8f6a3c72d09e5b14f8a6c3d27e90b5f1a4ce. o", "/A:b /SourcePassword:/)Xa?#1 v /T:", "new PDO(a, 'b', 'PFKUBcY})", "--api-key sk_test_Kq7RmTzX2wLpNvB9HcYdFsJ4GuQa8EkMoXt5ZrPwe3mLbV7pQ\nHbqwZR vkNW", "psexec 'A/b:HIoyzn ! DkW+MQ10.0.8.21'", "bindpw ! IEsLi+n! oo", "a:&3HWp94-Eudtcp(", "--api-key sk_test_vr7BJkyVxPMyrQxqOBk05m7ASDIw9QiprqZy1O0xPRDy149 l z j E9B p j t", "a.password=p%f e w 8 ", "userlist\n\"a b c\" \"", "AUTH PLAIN AGFk j b.", "//:key_c8ffe3e324718260 eaf 5 ", "--proxy-auth a:b\"c", "//:key_4888d2032dcaf 25b1@ba1 9c8 f ", "define( 'A_SALT, )PK3V&1*j=n ", "hostednetwork key=Gi&! b ", "\nbase64: Ws j Zo j +U j ", "ci:4Y7c% - - - 9A@tcp", "secret show\nIni kgEW8 ", "pvk2pfx -po Hbz! Tq7*m", "--user ‘a b@c:Rt7kQ", "/SourcePassword: --Yp2l", "Key: SouogobGo0", "'c’, I4BBw_4V'’, ", "Authorization = \"Bearer fnqGl\nEEhUGiIOPuvWBYn", "Authorization: Bearer AbCdEfGhIjKlMnOp", "--name db-password\nVAMt j Bm", "export OP SESSION _a=", "\nGGGGGGGGGGGGGGGG : Kq", "microk8s join a:25000/ea52a/2315", "a :Ulpo2L@t cp(", "a@b# c authentication-password 3\nK#", "'x-a-key: b' c", "local-user a password cipher ", "a: b - Valid credentials", "DBPasswor d=", "isql -v a b ", "-u a -p -b1c2d3e4f ", "$CFG-a =‘ \"b ", "a login b c fle ", "user a password $6$b$c\nd", "authentication toke\nn: 1", "a :b - Valid credentials", "VALID LOGIN: a@b:", "slappasswd -s ", "DBI—connect(\"a\", \"b\", \"", "= ‘‘a", "Credentials: :new(\"a\", \"b” . ", "-U a%b! c", "VALID LOGIN: a. b:", "CFPAT-a -b c -d ", "token-abcde:f g h ", "-p “a \"b \"c ", "st.secrets|\"a'] ", "password attack\n[SUCCESS] - a / ", "rman target a/@b@c/@", "DBI connect(\"a\", \"b\", \"", "Credentials::new(\"a\".., \"b\"... ", "smtp.PlainAuth(”\", \"a\"”, ”\")", "rpcclient -U 'aB1cDe2FgH'", "--encrypt-key @x®", "pdftk a input_pw ", "-o user=a:", "<param name=\"password\">", "Passphrase? ", "1 22/tep a: 'b' '", "a : b : 1: 1:c:/home/a: /", "| encfs --stdinpass", "-p 'a\nb' ", "&sig=a\nb\"", "key=a@b c", "= a\nXwme b c ", "PASSWORD FILE=", "***", "\na&b=c", "a:xX:1:", "imaps://a@b:c@", "A_SECRET_KEY=a b c d e f g h i ", "'a\nb&s ig=c\nd'", "--show\nLa: b:1:@:1:", "&si\n=a ", "bésig=a\nb '", "user=a:b c,", "imaps://a%4@b. c: d@", "newusers\na b : c :1:1:d:/home/a: /", "22/tcep a: 'b' c'", "$CFG->a 9 = '", "-t a1b2c3d4 -e", "AUTH PLAIN ab)c", "apikey -k a1b2c3d4-", "--token ABCDFGHJKLMNPQRSTVWXZ", "Apikey - a1b2 -", "\" None), a=\"b'", "A SECRET _FILE=", "Password: **kx", "&sig=a\n5s b c d e '", "-r a\nUxt! a1Bc2DeFg", "define( 'A_SALT', '{%*", "token = a\nb j fj c ", "token = a\n+b c", "-p 'a\nBcdfghjk' --t", "cat a.cred\nCa-b]", "&s i g=a b", "aws_session_token = Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9Qw\nf#T9#J&A ", "Secret ID = @b6e ", "PASSWORD _INPUT _x ", "ADMIN_TOKEN=Xk2 /Lm9 Qw ", "-p ‘Xk2Lm9Qw ", "password=Xk2Lm9Qw1 Ltd ", "--token Xk2Lm9Qw1 ", "--a-secret=Xk2Lm9Qw -Xk2Lm9QwXk2= ", "ss://Y 2 h Y@", "aws_session_token = Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9Qw\n@Xk2 ", "Password: st++sreeee ", "nzb_key = 9f%e2@Xk2 ",
                            "--cookie-secret=Xk2Lm9QwVb7qLm2Xz9Kw a b c - = ", "security find-generic-password -w\nDIM! Xk2Lm9@Qw\n", "<param name=\"password\"\u{201D}>",
                            "https: //a.b/c d e#Xk2Lm9QwVb7qLm2Xz9Kw ", "Access Token Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9Qw\nXk2Lm9 Qw Vb7q. to\n",
                            "$USER3$=Xk2 ! Lm9 ", "Hash: :make( '", "make_password(\u{2018}", "Security Key\nXk2) ", "/bot12345678 9 : AAXk2 ",
                            "/key/Xk2Lm9Qw Vb7", "chpasswd:\nlist: |\na: Xk2 Lm9 ", "Stream Key: live_ ", "\"PublickKey\": \"nodekey :", "$apri$", "&s ig=Xkdq Lm9QwVb7 ", "key=Xk2Lm9 Qw#Vb7 ",
                            "Stream key\nab12-cd34-ef56-gh78-ij90\n", "key=Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9QwVb7qLm2Xz9Kw4NcBdHs\na=b", "Unseal Key 1: ",
                            "eyJXk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9QwVb7qLm2Xz9Kw4NcBdHsAb\\\n", "ey JXk2Lm9 Qw.Vb7 q\\,\n    Lm2 Xz9 ", "Key Content : ",
                            "echo 'a: b' | chpasswd\n", "https: //a.b/c?d=e ", "a://b Xk2?si=e ", "'passwordsalt' => '",
                            "&s tg=Xk2 Lm9 ", "pas sword=", "com/watch?v=Xk2&t=4 ", "PASSWORD=7758 ! ", "Lcqbt ",
                            "mc alias set a b@:9 c ", "_auth=Xk2 Lm9 ", "Signers\nRoot Key: ",
                            "cookie\n_gh_sess — ", "# pw Xk2Lm9Qw ",
                            "Environment=\"A_TOKEN=Xk2Lm9QwVb7qLm2X a b c d ", "=b6sr=basig=", "PWD=a -b -c- ",
                            "imaps://a%40b . c: d ", "&sig=Abcdefg\n", "discord Mj Xk2Lm9QwVb7qLm2Xz9Kw4. ", "enter the code ABCD-EFGhI ",
                            "-—p 'a ", "1 2/tcp a: 'b' 'c", "Lin_api_ ", "4u@3Q~ ", "A_B : c:1:1:d:/home/a:/bin/sh\n", "{\"kty\": \"d\": \"", "\"kty\": \"n\": \"Xk2 Lm9_Qw ", "?a=b c&br anch=", "\"SessionToken\"”: \"", "secret=aB3 Jwaghyfz ", "-p 'a\nZW. i8S ", "Signers\nRoot Key: 7de4 ", "cookie\nconnect.sid a1B2c3D4e5F6g7H8i9 x ", "Backup codes\n3,1234.5678 ", "kdd je 1234 kddod: ", "imaps://a b c:d ", "Passphrase? -a ", "ldapsearch -w a! b ",
                            "; Pwd=a -b ", "https://a.b/c d e f?g=h ", "&s.ig=a b ", "S1.a b - c ", "pcsk_abcd_Xk2Lm9 ", "[Alipay] 123456\n", "vne:l/:a ", "kwz7Q~-RsTHG9F.iB27ZjkC-JkTHIbASUTQyjp5_", "client secret 3Qv ",
                            "aws_session_token = Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9Qw\njdhgvogf Xk2Lm9QwVb7q ", "--cookie-secret=Xk2Lm9QwVb7qLm2Xz9Kw\nwr TBf-4Jo=\n",
                            "aws_session_token = Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJyTaKqXk2Lm9Qw\n#Xk2Lm9QwVb7qLm2Xz9Kw4Nc\n", "whsec_Xk2Lm9Qw?'Vb7qLm2Xz9Kw4Nc ",
                            "aws_secret_access_ key = /Xk2Lm9Qw/Vb7q ", "depLoy :Xk2#Lm9Q : 1001: 1001:Ops:/home/a:/bin/sh\n",
                            "-u a -p 'Xk2#Lm9Q Vb7q LX\nXk2Lm9QwVb7q' ",
                            "&sig=%2BXk2Lm9Qw%2FVb7qLm2Xz9Kw4NcBdHsFg\n£%2BXk2%3D'\n", "PUKI 12345678 ",
                            "mMTAN a **** 1: 12345678 ", "--srce-creds a:'?-Xk2Lm9Q' ", "--cookie-secret=Xk2Lm9QwVb7qLm2Xz9Kw4NcBdHsFgJ -Nj F7 ",
                            "cookie\n_a_sess Xk2Lm9 Qw%V a.b / ", "key: \"Xk2Lm9)Qw ", "code 1987# ", "key=Xk2Lm9 Qw}Vb7q ",
                            "naponb: Qm7 ", "O Kwdikdc Eival 2839 ", "KQAIKOZ TpdoBaonc: "]

    /// The units in four shares, each a test case looping over its own: 366 cases each under a time
    /// limit were queued side by side and hit it with no case slow, and run one at a time they were
    /// CI's longest chain (15 minutes). A failure names its unit.
    @Test(arguments: 0..<4)
    func aSecretAfterALineOfLabelsIsFound(share: Int) throws {
        for (index, unit) in Self.labelUnits.enumerated() where index % 4 == share {
            let text = String(repeating: unit, count: 8_500 / unit.utf8.count) + "\nexport GITHUB_TOKEN=ghp_R8uVq2LmZ0pXc7TnW4yKd9HsB3eJf6Ga1NoQ\n"
            let last = try #require(detector.secrets(in: text).last, "unit \(unit.debugDescription)")
            #expect(value(last, in: text) == "ghp_R8uVq2LmZ0pXc7TnW4yKd9HsB3eJf6Ga1NoQ", "unit \(unit.debugDescription)")
        }
    }

    /// A run without spaces past a kilobyte that holds a password's symbols (`x#x#…`, a banner of
    /// `#`, `A!A!…`) is read once: the password-shape rule once stayed at its kilobyte's end for
    /// ever. The key after it is still found.
    @Test(arguments: ["x#", "A!", "https://a.io/x#"])
    func aLongRunOfSymbolsEnds(unit: String) throws {
        // (2.5 KB is past the kilobyte that stopped it; more only slows the suite's other tests.)
        let text = String(repeating: unit, count: 2_560 / unit.utf8.count) + "\nexport GITHUB_TOKEN=ghp_R8uVq2LmZ0pXc7TnW4yKd9HsB3eJf6Ga1NoQ\n"
        let last = try #require(detector.secrets(in: text).last)
        #expect(value(last, in: text) == "ghp_R8uVq2LmZ0pXc7TnW4yKd9HsB3eJf6Ga1NoQ")
    }

    /// Numbers in groups of four for 20 KB (a spreadsheet, a hex dump), then a card.
    @Test func aCardAfterALongRunOfGroupsIsFound() throws {
        let text = String(repeating: "4111 ", count: 4_000) + "x\nCard 4242 4242 4242 4242 exp 12/29\n"
        let cards = detector.secrets(in: text).filter { $0.kind == .card }
        let card = try #require(cards.first { $0.label != "expiry" })
        #expect(value(card, in: text) == "4242 4242 4242 4242")
        // The run itself: 4,000 groups of four, grouped as no card is (a card's groups are all of
        // it), so no window of them is one.
        #expect(!cards.contains { $0.start < 20_000 })
    }

    /// A key longer than any rule reads at once is masked to the end of its run, not cut.
    @Test func aLongKeyIsMaskedWhole() throws {
        let body = String((0..<2_000).map { Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")[($0 * 7 + $0 / 13) % 64] })
        let text = "    \"privateKey\": \"\(body)\",\n  \"user\": \"ana\""
        let secret = try #require(detector.secrets(in: text).first)
        #expect(value(secret, in: text) == body)
    }

    /// A secret's run ends where its characters do: a host after `@` stays.
    @Test func aRunEndsAtItsHost() throws {
        let text = "git clone https://oauth2:glpat-Xk2mP9vQ7rTz4WbN8cLd@gitlab.com/acme/api.git"
        let secret = try #require(detector.secrets(in: text).first)
        #expect(value(secret, in: text) == "glpat-Xk2mP9vQ7rTz4WbN8cLd")
    }

    /// Many PEM headers with no footer: one block from the first to the text's end.
    @Test func headersWithoutFootersAreOneBlock() {
        let text = String(repeating: "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n", count: 800)
        let found = detector.secrets(in: text)
        #expect(found.count == 1)
        #expect(found.first?.start == 0)
        #expect(found.first?.end == text.utf8.count)
    }

    /// A name with its cue at the end of a long line of names; the cue is read near the name.
    @Test func aCuedNameAtTheEndOfALongLineIsFound() {
        let text = String(repeating: "Anna Smith, ", count: 2_500) + "From: Jane Roe"
        let people = PersonExtraction.entities(in: text)
        #expect(people.last?.value == "Jane Roe")
    }

    /// An e-mail address after a long run of its characters (`A_A_…`) is still found whole.
    @Test func anAddressAfterALongRunIsFound() {
        let text = String(repeating: "A_", count: 10_000) + " and ana.lopez@example.com"
        #expect(WebExtraction.emails(in: text).map(\.value) == ["ana.lopez@example.com"])
    }

    /// Searching windows of a long text finds what a search of the whole text finds in them,
    /// look-behinds and look-aheads included, with characters outside ASCII (two UTF-16 units
    /// for an emoji) around the windows' ends.
    @Test func windowsFindWhatTheWholeTextFinds() throws {
        let pattern = #"(?<![A-Za-z])(?:key|token)(?![a-z])[ \t]*[:=][ \t]*(\S+)(?=\s|$)"#
        let matcher = TextMatcher(pattern)
        let regex = try NSRegularExpression(pattern: pattern)
        let lines = (0..<400).map { i in
            ["token: ab\(i)cd 😀", "😀key=\(i)ef", "monkey: no \(i)", "é token = x\(i) é", "plain line \(i)"][i % 5]
        }
        let text = lines.joined(separator: "\n")
        let ns = text as NSString
        // Every third line a window, as `lines(mentioning:)` makes them.
        var windows: [NSRange] = [], location = 0
        for (index, line) in lines.enumerated() {
            let length = (line as NSString).length
            if index % 3 == 0 { windows.append(NSRange(location: location, length: length)) }
            location += length + 1
        }
        let windowed = matcher.matches(in: text, within: windows).map { [$0.start, $0.end] + ($0.range(1).map { [$0.lowerBound, $0.upperBound] } ?? []) }
        var expected: [[Int]] = []
        for window in windows {
            for result in regex.matches(in: text, options: [.withTransparentBounds], range: window) {
                let whole = Range(result.range, in: text)!, group = Range(result.range(at: 1), in: text)!
                expected.append([whole.lowerBound, whole.upperBound, group.lowerBound, group.upperBound].map { text.utf8.distance(from: text.startIndex, to: $0) })
            }
        }
        #expect(!expected.isEmpty)
        #expect(windowed == expected)
        #expect(ns.length > ICURegex.searchContext * 10)
    }
}
