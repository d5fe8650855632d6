#!/usr/bin/env python3
"""Secrets on rendered screens, read by Lens's own OCR: what leaks into the library.

    python3 rendered.py --seed 1 --count 200 --out /tmp/secrets-seed1     # render
    python3 rendered.py --score /tmp/secrets-seed1 --lens .build/release/lens

Rendering: each case is a small HTML "screen" (a terminal, a chat, a settings page, a config file)
drawn by headless Chromium (the browser the page's tests use) in one of the installed fonts
(`scripts/install-bench-fonts.sh` adds Liberation, Noto, Roboto, Open Sans, Hack, Fira Code and
Inconsolata to DejaVu), at 15–26 px, light or dark. Every secret is random (drawn from the seed:
tokens in each provider's documented shape, passwords, PEM keys, base32 setup keys, codes); the
phrasings come from the kinds people meet (exports, flags, URLs with credentials, messages). A
negative screen holds what must stay searchable: git logs, checksums, UUIDs, order, tracking and
phone numbers, ISBNs, versions, dates, amounts, ports. `--pool second` draws from phrasings,
providers and negatives added after the rules had been through many rounds on the first pool
(Docker, sshpass, YAML, JSON, a password manager's entry, OpenAI, Anthropic, Hugging Face, npm,
Slack webhooks, SendGrid, Google keys in a URL, PGP keys, SMS codes; pods, digests, document
links, lock-file hashes, ARNs, GPG fingerprints, wallet addresses, tracking numbers, receipts).
`--pool third` draws from phrasings written after the second pool had been through four rounds
(see ``third_secret_case``): Windows, PowerShell, connection strings, Wi-Fi QR text, routers,
chats, recovery codes, seed phrases, more providers; and negatives near them (`shasum -a`,
error and promo codes, placeholders, Stripe request ids, `kubectl get secrets`). `--pool fourth`
(see ``fourth_secret_case``), written after the third had been through seven rounds: SQL, PHP,
Terraform, Ansible, Kubernetes and Docker config, WireGuard and OpenVPN keys, more providers, app
passwords, bank OTPs; negatives such as public keys, host fingerprints, IMEIs, request ids.
`--pool fifth` (see ``fifth_secret_case``), written after the fourth had been through six rounds:
command-line tools' own password arguments, XML and properties files, more providers, presigned
URLs, kubeconfig, `otpauth://`, recovery and product keys, codes in other languages, secrets in
source code; negatives such as certificates, signatures, integrity hashes, data URIs, click ids.
`--pool sixth` (see ``sixth_secret_case``), written after the fifth had been through eight rounds:
network-device configs, `expect` scripts, Helm and Docker flags, a command whose output is the
password, escaped JSON, CSV exports and tables with a password column, links and cookies that
carry a session, more providers, codes in more languages, door codes, device sign-in codes;
negatives such as Sentry DSNs, Nix store paths, `go.sum`, CIDs, SIDs, transaction hashes.
`--pool seventh` (see ``seventh_secret_case``), written after the sixth had been through six rounds:
name/value pairs on two lines or in JSON and XML, password labels in ten more languages, more
tools' flags, systemd and Heroku config, more providers, SMS codes in more shapes, an
authenticator's list, TANs, UK and Australian accounts, a Markdown table, notes, secrets piped
from `echo`, log lines; negatives such as `${{ secrets.X }}`, `(sensitive value)`, `secretKeyRef`,
code reading the environment, MAC and IPv6 addresses, asset hashes, GHSA ids, Ansible Vault text.
`--pool eighth` (see ``eighth_secret_case``), written after the seventh had been through six rounds:
more config files (Composer, Cargo, RubyGems, `~/.my.cnf`, `wp-config.php`, ESPHome), database
clients, a dashboard's variables, a browser's cookie table, `env` and `docker inspect` output,
password managers' panes and CLIs, labels above their values, backup codes, cloud CLIs' `--value`,
request headers, keys in query strings, more providers, codes and labels in more languages;
negatives such as `wg show`, `kubectl describe secret`, masked tokens, SRI hashes, pod names,
image digests, key fingerprints, ARNs, `.env.example`, data URIs, Bitcoin addresses.
`--pool ninth` (see ``ninth_secret_case``), written after the eighth had been through four rounds:
more tools' credentials (`wget`, Helm, `crane`, `skopeo`, `twine`, `poetry`, `composer`, `keytool`,
`plink`, `bcp`, `ncftp`, `vault login`), a notebook server's token, tokens a dashboard shows once,
device codes, Asterisk, Grafana, Prometheus and `.properties` files, keys in code and Markdown,
a calendar invite's passcode, a Wi-Fi card, a push notification's code, a BitLocker recovery key,
a PIN letter; negatives such as hashed passwords (Tor, `shadow`, bcrypt), `-passout env:`,
restic snapshot ids, Stripe object ids, a JWKS modulus, LFS object ids, UUIDs, transaction
hashes, hidden codes, advisory ids, signed digests and templated or vaulted config values.
`--pool tenth` (see ``tenth_secret_case``), written after the ninth had been through four rounds:
CI runners' and build services' tokens, password managers' sessions and `show` output, Fastlane,
Rails credentials, Matrix, Cloudinary, Terraform Cloud, `printenv` lines named `*_PASS`/`*_PWD`,
`.git-credentials`, colloquial chat, codes shown in two groups and beside an amount, a browser's
suggested password, `sssd.conf`, an OpenVPN `auth.txt`, `aws sts` JSON, `terraform output`, an
app password, an age secret key, NetworkManager's `psk=`, flow mappings, Android signing configs;
negatives such as LLM token counts, exit and status codes, VINs, public client keys (PostHog,
Mapbox `pk.`), password-age notices, S3 response headers, short links, empty settings, BSSIDs,
`Content-MD5`, a GPG signing key id, age and Nostr public keys, `git ls-remote`, Docker volumes.
`--pool eleventh` (see ``eleventh_secret_case``), written after the tenth had been through several
rounds and before any rule was run on it: more tools' flags and prompts (HTTPie, `wp`, `mysqldump`,
`chpasswd`, `unrar`, `wrangler`, `hcloud`, `linode-cli`, ngrok, cloudflared, Vercel), server
configs (Redis, Gitea, Nextcloud, Synapse, Mastodon, TeamSpeak, `ovh.conf`, Scaleway), WebOTP and
seven-digit codes, an Amex number, `netsh … key=clear`, Azure Service Bus, chat logins; negatives
such as ObjectIds, onion addresses, magnet links, publishable and site keys, `*_PASSWORD_*`
settings with numbers, OAuth expiry fields, container ids, stack traces, certificate serials,
device and product ids, a 16-digit transaction id, and commit messages about tokens and secrets.
`--pool twelfth` (see ``twelfth_secret_case``), written after the eleventh had been through one
round and before any rule was run on it: Wi-Fi, Swarm and `kubeadm` join tokens, keys as bare
arguments (`mc alias set`), mail clients' configs (`.authinfo`, mutt, msmtp, fetchmail), Windows
service and task passwords, Vault unseal keys, HAProxy, first-start passwords (Elasticsearch,
Jenkins, MySQL's log), password commands (Neo4j, Grafana, Pulumi), a notebook's `%env`, Azure
storage keys, `adb pair` and more message codes, TeamViewer, PostgreSQL user mappings, LDIF,
Syncthing, ntfy, `--oauth2-bearer`, Compose files, a webhook signing secret; negatives such as hex
dumps, `*_PASSWORD_FILE` paths, Discord and Matrix ids, Syncthing device ids, YouTube links,
`passwd -S`, password rules, analytics cookies, CloudFront ids, friend codes, `$(pass show …)`,
ZeroTier ids, remote-desk addresses, a CA key hash and error ids.
`--pool thirteenth` (see ``thirteenth_secret_case``), written after the twelfth had been through one
round and before any rule was run on it: installer and cloud-init root passwords, PgBouncer, Tor,
Consul, MongoDB, `redis-cli AUTH`, keepalived, BGP and OSPF keys, Pi-hole, a `git diff` removing a
secret, Rails and PHP consoles, Ruby's `=>`, Java's `-D…Password=`, `wmic`, Nagios, Dovecot, Postfix,
`steamcmd`, stream keys, webhook URLs with the secret in the path, Element's and 1Password's keys,
`firebase login:ci`, camera URLs, chat lines, spaced and lettered codes, a Solana keypair, Plex and
SQL `INSERT` rows; negatives such as safety numbers, fingerprint phrases, hashed passwords in
`.htpasswd`, Kickstart and PgBouncer, mail headers, CSP nonces, hashed `known_hosts`, Lightning
invoices, extension ids, EC2 ids, `vault status`, disk serials, booking references, place ids,
content-addressed file names and Tailscale node keys.
`--pool fourteenth` (see ``fourteenth_secret_case``), written after the thirteenth had been through one
round and before any rule was run on it: mail and file-transfer sessions typed by hand (IMAP `LOGIN`,
POP3 `PASS`, SMTP `AUTH PLAIN`), SQL Server logins, here-strings, WordPress and Apple app passwords, a
TLS key log, OpenWrt and MikroTik, Salesforce, Proxmox, gift-card and pickup codes, MEGA and PrivateBin
links, `Proxy-Authorization`, Azure DevOps, Backblaze, PlanetScale, extended private keys, a Monero
spend key, `net user`, `openssl passwd`, PINs, chat `creds`, FileVault, labels in Greek, Hebrew, Thai and
Hindi and a password field's `value=`; negatives such as `sshd` logs and config, MySQL's password
policy, hashed basic-auth labels and Cisco secrets, `aws sts` ids, a cluster's CA data, extended public
keys, signed commits, `grep` over code, `klist`, `gpg --list-secret-keys`, `docker secret ls` and
`luksDump`.
`--pool fifteenth` (see ``fifteenth_secret_case``), written after the fourteenth had been through one
round and before any rule was run on it: values a command prints alone on the next line (`security
… -w`, `nmcli -s -g`, `wg genkey`, `argocd admin initial-password`, `secret-tool lookup`), `openssl
dgst -hmac`, `echo … >` a password file, PuTTY and minisign keys, Signal's backup passphrase,
credentials passed to functions, curl's `-b`, Azure function keys, `oathtool`, ODBC's `Pwd=`, SRT,
`smbpasswd`, rclone, `ipmitool`, SNMP communities, `x11vnc`, `.mbsyncrc`, `ssh-keygen -N`, client
secrets, Jenkins tokens, WordPress salts, `ldappasswd -s` and `nsec1`; negatives such as realm and DKIM
public keys, SOPS and sealed secrets, JWKS, ACME challenges, an Ethereum keystore, masked password
fields, ULIDs and trace ids, apt's `Release` hashes, `ssh-add -l`, Git LFS pointers, passkey ids,
`wg show` and `Cargo.lock` checksums.
`--pool sixteenth` (see ``sixteenth_secret_case``), written after the fifteenth had been through one
round and before any rule was run on it: Redis ACL `>password`, ACME EAB keys, TSIG secrets,
FreeRADIUS clients, Ceph keyrings, Kafka JAAS, `kadmin`, `samba-tool`, a systemd-cryptenroll recovery
key, a YubiKey OTP in a chat, a password typed at the prompt, qBittorrent, Deluge, an *arr API key, a
Zabbix PSK, `yt-dlp`, `vault kv get`, `wpa_passphrase`, `docker history`, crontab, `set -x`,
shadowsocks, `create-for-rbac`, MySQL `SET PASSWORD`, NATS seeds, Google Authenticator's export,
`gh secret set`, `rclone obscure`, `kcadm.sh`, Ansible's `password_hash` and a reset dialog; negatives
such as `pg_hba.conf`, `blkid`, image and key ids, hashed Redis ACLs, boot and machine ids, certificate
serials, a Ceph fsid, a CI log's `***`, DNSKEYs, `ykman info`, `pkg@version` and torrent hashes.
`--pool seventeenth` (see ``seventeenth_secret_case``), written after the sixteenth had been through one
round and before any rule was run on it: OpenVPN's `auth-user-pass` file, Nextcloud's `OC_PASS`,
Transmission, `grafana-cli`, Gitea and Forgejo, `tootctl`, `unzip -P`, `qpdf`, a vault password file,
`podman secret`, `systemd-creds`, RustDesk, WireGuard's `PresharedKey`, `ipsec.secrets`, `racadm`,
`GOVC_PASSWORD`, `kopia`, Jellyfin, Home Assistant's `secrets.yaml`, Tasmota, OctoPrint, Headscale,
Woodpecker, the JFrog CLI, UUID-shaped tokens, Duo's `skey`, `lpass` and `gopass`, a table with a
Password column, PagerDuty, exchange API secrets, FileZilla's `<Pass>`, `redis-cli -a`, `gpg
--passphrase` and a password manager's CSV export; negatives such as `--password-stdin`, bcrypt and
argon2 hashes, `podman secret ls`, fingerprints, host keys, `$__file{…}`, `${VAR}` and `!secret`
references, `secretKeyRef`, ids, snapshot ids, placeholders and a console's `****`.
`--pool eighteenth` (see ``eighteenth_secret_case``), written after the seventeenth had been through one
round and before any rule was run on it: Windows' autologon `DefaultPassword`, Elasticsearch's reset
password and enrollment token, `aws configure set`, Kafka's SCRAM config, `netlify env:set`, `mc admin
user add`, Oracle's `expdp user/pass@db`, LDIF `userPassword:`, CIFS in `/etc/fstab`, `oc login`,
`kubectl config set-credentials --token=`, `jenkins-cli -auth`, Terraform's credentials file, `packer
-var`, `winrs -p:`, Sentinel's `auth-pass`, RabbitMQ's `default_pass`, `kcat`, an `appsettings.json`
JWT key, `machineKey`, `$wgSecretKey`, Airflow's `fernet_key`, Mattermost's `AtRestEncryptKey`,
LiveKit's `keys:`, Nomad's `Secret ID`, `kubeadm join --token`, HTTPie's `-a`, Cisco's `password 0`,
AnyDesk, `influx auth create`, Nextcloud's app password and `ansible-vault encrypt_string`; negatives
such as hashed LDIF and Juniper passwords, password prompts, CA hashes, Nomad's accessor, `vault
status`, masked connections, ASP.NET's `AutoGenerate`, `reg query`'s other values, ciphertext, ids.
`--pool nineteenth` (see ``nineteenth_secret_case``), written after the eighteenth had been through one
round and before any rule was run on it: `aws ssm get-parameter --with-decryption`, `aws rds
--master-user-password`, `openstack --os-password`, `consul kv get`, `chamber read`, `infisical secrets
set`, `wp config set`, `bitcoin-cli walletpassphrase`, Nextcloud's `mail_smtppassword`, `rdesktop`,
`pscp -pw`, WinSCP's `-passphrase=`, an OpenVPN `--askpass` file, `mkstore`, `dsadd -pwd`, DuckDNS,
`inadyn.conf`, NickServ, WeeChat's `sasl_password`, ZNC, Composer's `auth.json`, `helm --set-string`,
`gitlab-runner register`, SNMPv3 users, `pct create`, `rabbitmqadmin`, `swanctl.conf`, `murmurd -supw`,
`mcrcon`, `influx setup`, Vaultwarden's `ADMIN_TOKEN` and `sonar-scanner -Dsonar.login=`; negatives
such as Jenkins' and EJSON's encrypted values, KMS ciphertext, an argon2 admin token, key listings
without values, UUIDs of raft peers, `hdseedid`, host keys, a `${VAR}` in a URL, `existingSecret`.
`--pool twentieth` (see ``twentieth_secret_case``), written after the nineteenth had been through one
round and before any rule was run on it, its lines wrapped at the page's edge as a terminal wraps
them: Certbot's Cloudflare token, `ddclient.conf`, davfs2 and PPP secrets files, `jarsigner`,
`apksigner`, `notarytool`, `etcdctl --user`, Keycloak's bootstrap password, `cqlsh`, `--proxy-user`,
irssi, `mongo -p`, frp, `chisel`, 3proxy, `john --show`, aircrack-ng, PlatformIO, Zigbee2MQTT,
Node-RED, Concourse, `dotnet nuget`, Maven's GPG passphrase, `wpa_cli`, Authelia, signify and Nebula
keys, Gotify, Paperless, an Incus trust token, `ejabberdctl` and NZBGet; negatives such as
certificate serials, etcd member ids, a yescrypt hash, BSSIDs, `ext_pan_id`, Node-RED ids, signify
public keys, Nebula certificates, GPG key ids, `*_FILE` settings, `${VAR}`, `appid`, `wpa_cli
status`, SHA-256 digests and an irssi connection without a password.
`--pool twenty-first` (see ``twenty_first_secret_case``), written after the twentieth had been through
one round and before any rule was run on it, wrapped as the twentieth: proxychains, Squid's
`cache_peer … login=`, HexChat's `P=`, BitlBee, `sstpc`, hostapd's `sae_password`, `etcdctl put`,
`redis-cli SET`, `~/.boto`, CouchDB (`curl -X PUT … -d`, `[admins]`), Jetty's `realm.properties`,
`tomcat-users.xml`, GitHub's and Azure Pipelines' runner tokens, `snyk auth`, `cargo login`, `conan`,
`nuget setapikey`, `choco apikey`, `expo login`, `ibmcloud --apikey`, `aliyun`, `tccli`, Duplicati,
VeraCrypt, eCryptfs, `esxcli`, a Vagrantfile, OCI's `pass_phrase`, ActiveMQ's `users.properties` and
`realm join --one-time-password=`; negatives such as `socks5 127.0.0.1 9050`, `login=PASSTHRU`,
`etcdctl get`, `redis-cli GET`, `psql`'s role list, `db.getUsers()`, PBKDF2 admins, `${VAR}` passwords, runner
logs, `snyk test`, `cargo publish`, `nuget push`, API key ids, `veracrypt --list`, OCI fingerprints
and `realm list`.
`--pool twenty-second` (see ``twenty_second_secret_case``), written after the twenty-first had been
through a round and before any rule was run on it, wrapped as the twentieth: acme.sh's `CF_Key`, WPS
PINs, `az keyvault secret show -o tsv`, `DOTENV_KEY`, ZooKeeper's `addauth`, Cisco's TACACS+, RADIUS
and ISAKMP keys, `adb`'s and `networksetup`'s Wi-Fi passwords, `netsh … hostednetwork key=`,
Autologon, `op signin`, `mmctl`, VLESS, Trojan and Hysteria 2 links, `hashcat --show`, CrackMapExec,
`evil-winrm`, Impacket, Hydra, `microk8s join`, `rsyncd.secrets`, stunnel's PSKs, `pvk2pfx`,
secretsdump's `DefaultPassword`, mimikatz, `smbmap`, WordPress' salts, `SSHPASS` and iwd's
`Passphrase=`; negatives such as ISAKMP policies, `op whoami`, `netsh … show hostednetwork`, hashcat's
benchmark, CrackMapExec's banner, `microk8s status`, Key Vault ids, ZooKeeper's digest ACLs (hashes),
Hydra's start line, `rsyncd.conf`, `stunnel.conf`, WordPress' settings, mimikatz' `(null)`,
secretsdump's service lines, `adb devices` and iwd's 802.1X profile.

Scoring imports the folder with `lens import` into a fresh database, then looks for every secret
in everything Lens keeps and answers: the export (text, entities, code payloads, tags, notes) and
the database file's bytes. A leak is any run of 8 characters of the secret, whitespace removed,
found there with whitespace removed (a run in the database's bytes that another screen shows too,
a word of a seed phrase, is no leak of this one); a value shorter than that (a code) is counted apart, as
"short kept", when the stored text holds it whole. A false positive is a negative screen whose
stored text holds a secret marker. The same lines as clean text go through `lens extract --json`
too: clean-text recall is the share of screens whose every value is masked there (no 8
characters of it left, a short value not left whole). Develop on one seed, report on another.
"""
import argparse
import base64
import functools
import hashlib
import html
import json
import os
import random
import re
import string
import subprocess
import sys
import tempfile
import uuid

FONTS = {
    "sans": ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Roboto", "Open Sans"],
    "serif": ["DejaVu Serif", "Liberation Serif", "Noto Serif"],
    "mono": ["DejaVu Sans Mono", "Liberation Mono", "Noto Mono", "Hack", "Fira Code", "Inconsolata"],
}
THEMES = {"light": ("#ffffff", "#1f2328"), "dark": ("#0d1117", "#e6edf3"), "grey": ("#f3f3f3", "#333333"),
          "solarized": ("#002b36", "#93a1a1")}


def rand(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


ALNUM = string.ascii_letters + string.digits
B32 = string.ascii_uppercase + "234567"


def luhn_complete(rng, prefix, length):
    digits = prefix + rand(rng, string.digits, length - len(prefix) - 1)
    total = 0
    for i, d in enumerate(reversed(digits)):
        v = int(d)
        if i % 2 == 0:
            v *= 2
            if v > 9:
                v -= 9
        total += v
    return digits + str((10 - total % 10) % 10)


def iban(rng):
    country, length = rng.choice([("DE", 22), ("GB", 22), ("FR", 27), ("NL", 18), ("ES", 24)])
    if country == "GB":
        bban = rand(rng, string.ascii_uppercase, 4) + rand(rng, string.digits, 14)
    elif country == "NL":
        bban = rand(rng, string.ascii_uppercase, 4) + rand(rng, string.digits, 10)
    else:
        bban = rand(rng, string.digits, length - 4)
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    compact = f"{country}{check:02d}{bban}"
    return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))


def password(rng):
    while True:
        p = rand(rng, string.ascii_letters + string.digits + "!#%&*+-?@^_", rng.randint(10, 16))
        if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and any(c.islower() for c in p):
            return p


def pem(rng):
    kind = rng.choice(["RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY"])
    body = base64.b64encode(rng.randbytes(rng.randint(120, 220))).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return kind, lines


def jwt(rng):
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return part({"alg": "HS256", "typ": "JWT"}) + "." + part({"sub": rand(rng, string.digits, 8), "name": "user"}) + "." + \
        base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")


def secret_case(rng):
    """(kind, lines, secret values): one screen's worth."""
    user = rng.choice(["deploy", "admin", "ci", "app", "jenkins", "maria"])
    host = rng.choice(["db.internal", "10.0.3.12", "pg.example.net", "gitlab.acme.io"])
    choice = rng.randrange(22)
    if choice == 0:
        v = "ghp_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ export GITHUB_TOKEN={v}", "$ gh repo clone acme/website"], [v]
    if choice == 1:
        v = "ghp_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ git remote set-url origin https://{user}:{v}@github.com/acme/app.git", "$ git push"], [v]
    if choice == 2:
        v = "glpat-" + rand(rng, ALNUM + "_-", 20)
        return "api_key", ["Personal access token created", f"Your new token: {v}", "Make sure you save it"], [v]
    if choice == 3:
        v = f"xoxb-{rand(rng, string.digits, 11)}-{rand(rng, string.digits, 13)}-{rand(rng, ALNUM, 24)}"
        return "api_key", ["Bot User OAuth Token", v, "Reinstall to Workspace"], [v]
    if choice == 4:
        v = "AKIA" + rand(rng, string.ascii_uppercase + string.digits, 16)
        s = rand(rng, ALNUM + "/+", 40)
        return "api_key", ["[default]", f"aws_access_key_id = {v}", f"aws_secret_access_key = {s}"], [v, s]
    if choice == 5:
        v = "sk_live_" + rand(rng, ALNUM, 24)
        return "api_key", ["Standard keys", f"Secret key  {v}", "Reveal live key"], [v]
    if choice == 6:
        kind, lines = pem(rng)
        return "api_key", [f"-----BEGIN {kind}-----"] + lines + [f"-----END {kind}-----"], lines
    if choice == 7:
        v = password(rng)
        return "password", ["Guest network", f"Wi-Fi password {v}", "Valid until Sunday"], [v]
    if choice == 8:
        v = password(rng)
        return "password", [f"$ mysql -u {user} -p{v} orders", "mysql>"], [v]
    if choice == 9:
        v = password(rng)
        return "password", [f"$ pg_dump --password={v} -h {host} sales > sales.sql"], [v]
    if choice == 10:
        v = password(rng)
        q = rng.choice(["'", '"'])
        return "password", [f"$ export PGPASSWORD={q}{v}{q}", f"$ psql -h {host} -U {user}"], [v]
    if choice == 11:
        v = password(rng)
        name = rng.choice(["DB_PASSWORD", "MYSQL_ROOT_PASSWORD", "SMTP_PASS", "REDIS_PASSWORD"])
        return "password", ["# .env", f"{name}={v}", "DEBUG=false"], [v]
    if choice == 12:
        v = password(rng)
        return "password", [f"{user}: the new pass is {v}", "ok thanks, logging in now"], [v]
    if choice == 13:
        v = rand(rng, B32, 32)
        shown = " ".join(v[i:i + 4] for i in range(0, 32, 4))
        if rng.random() < 0.5:
            shown = shown.lower()
        return "api_key", ["Can't scan the QR code?", "Enter this setup key in your authenticator app:", shown], [v]
    if choice == 14:
        v = rand(rng, string.digits, 6)
        return "otp", [f"Your sign-in code is {v}", "It expires in 10 minutes."], [v]
    if choice == 15:
        v = rand(rng, string.digits, 6)
        return "otp", [f"Use {v} to sign in to your Contoso account.", "Don't share this code."], [v]
    if choice == 16:
        v = luhn_complete(rng, rng.choice(["4", "51", "55", "2221"]), 16)
        shown = " ".join(v[i:i + 4] for i in range(0, 16, 4))
        return "card", ["Payment method", f"Card number {shown}", "Expiry 09/28"], [v]
    if choice == 17:
        v = iban(rng)
        return "iban", ["Pay by bank transfer", f"IBAN {v}", "Reference INV-2291"], [v.replace(" ", "")]
    if choice == 18:
        v = jwt(rng)
        return "api_key", ["Authorization header", f"Bearer {v}"], [v]
    if choice == 19:
        v = password(rng)
        return "api_key", [f"DATABASE_URL=postgres://{user}:{v}@{host}:5432/app"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 32)
        name = rng.choice(["OPENAI_API_KEY", "SENDGRID_SECRET", "APP_SECRET_KEY", "STRIPE_TOKEN"])
        return "api_key", [f"{name}=\"{v}\"", "PORT=8080"], [v]
    v = "glpat-" + rand(rng, ALNUM + "_-", 20)
    return "api_key", [f"$ git clone https://oauth2:{v}@gitlab.com/acme/infra.git"], [v]


def second_secret_case(rng):
    """The second pool (`--pool second`): phrasings and providers the rules were not written
    against (the first pool's 22 shapes had been seen through many rounds)."""
    user = rng.choice(["deploy", "admin", "ci", "app", "jenkins", "maria", "ops"])
    host = rng.choice(["db.internal", "10.0.3.12", "pg.example.net", "cache-1.acme.io"])
    choice = rng.randrange(24)
    if choice == 0:
        v = password(rng)
        return "password", [f"$ docker login -u {user} -p {v} registry.acme.io", "Login Succeeded"], [v]
    if choice == 1:
        v = password(rng)
        return "password", [f"$ sshpass -p '{v}' ssh {user}@{host}", "Last login: Tue Mar  4 09:12:44"], [v]
    if choice == 2:
        v = password(rng)
        return "password", [f"$ redis-cli -h {host} -a {v} ping", "PONG"], [v]
    if choice == 3:
        v = password(rng)
        return "password", ["database:", f"  host: {host}", f"  user: {user}", f"  password: {v}", "  pool: 5"], [v]
    if choice == 4:
        v = password(rng)
        return "password", ["{", f'  "username": "{user}",', f'  "password": "{v}",', '  "remember": true', "}"], [v]
    if choice == 5:
        v = password(rng)
        return "password", ["Username", f"{user}@acme.io", "Password", v, "Website  acme.io"], [v]
    if choice == 6:
        v = "ghp_" + rand(rng, ALNUM, 36)
        return "api_key", [f'$ curl -H "Authorization: token {v}" https://api.github.com/user'], [v]
    if choice == 7:
        v = "sk-proj-" + rand(rng, ALNUM + "-_", 64)
        return "api_key", ["Save your key", "Please save this secret key somewhere safe.", v, "You won't be able to view it again."], [v]
    if choice == 8:
        v = "sk-ant-api03-" + rand(rng, ALNUM + "-_", 93) + "AA"
        return "api_key", ["import anthropic", f'client = anthropic.Anthropic(api_key="{v}")'], [v]
    if choice == 9:
        v = "hf_" + rand(rng, ALNUM, 34)
        return "api_key", [f"$ huggingface-cli login --token {v}", "Login successful"], [v]
    if choice == 10:
        v = "npm_" + rand(rng, ALNUM, 36)
        return "api_key", ["# ~/.npmrc", f"//registry.npmjs.org/:_authToken={v}"], [v]
    if choice == 11:
        a, b, v = "T" + rand(rng, string.ascii_uppercase + string.digits, 8), "B" + rand(rng, string.ascii_uppercase + string.digits, 10), rand(rng, ALNUM, 24)
        return "api_key", ["Incoming Webhooks", "Webhook URL", f"https://hooks.slack.com/services/{a}/{b}/{v}"], [v]
    if choice == 12:
        v = "SG." + rand(rng, ALNUM + "-_", 22) + "." + rand(rng, ALNUM + "-_", 43)
        return "api_key", ["API Key Created", "Please copy this key and save it somewhere safe.", v], [v]
    if choice == 13:
        v = "rk_live_" + rand(rng, ALNUM, 99)
        return "api_key", ["Restricted keys", f"orders-sync   {v}", "Created Mar 4"], [v]
    if choice == 14:
        v = "AIza" + rand(rng, ALNUM + "-_", 35)
        return "api_key", [f'<script src="https://maps.googleapis.com/maps/api/js?key={v}&callback=initMap"></script>'], [v]
    if choice == 15:
        v = rand(rng, string.digits, 6)
        # (message, the code it shows): Uber's codes are four digits, Telegram's five.
        line, shown = rng.choice([(f"{v} is your Instagram code. Don't share it.", v), (f"G-{v} is your Google verification code.", v),
                                  (f"Your Uber code: {v[:4]}. Never share this code.", v[:4]),
                                  (f"[Acme] Your login code: {v[:3]}-{v[3:]}", v), (f"WhatsApp code {v[:3]}-{v[3:]}", v),
                                  (f"Login code: {v[:5]}. Do not give this code to anyone", v[:5])])
        return "otp", ["Messages", line, "now"], [shown]
    if choice == 16:
        v = luhn_complete(rng, rng.choice(["4", "51", "2221"]), 16)
        return "card", ["Name on card  ANA SOUZA", " ".join(v[i:i + 4] for i in range(0, 16, 4)), "Exp 09/28   CVC 381"], [v]
    if choice == 17:
        v = luhn_complete(rng, rng.choice(["34", "37"]), 15)
        return "card", ["American Express", f"{v[:4]} {v[4:10]} {v[10:]}", "Member since 2019"], [v]
    if choice == 18:
        v = iban(rng)
        return "iban", [f"Please transfer the deposit to {v} by Friday.", "Thanks, Lea"], [v.replace(" ", "")]
    if choice == 19:
        v = password(rng)
        return "api_key", [f"mongodb+srv://{user}:{v}@cluster0.ab1cd.mongodb.net/test?retryWrites=true"], [v]
    if choice == 20:
        body = base64.b64encode(rng.randbytes(rng.randint(120, 200))).decode()
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        return "api_key", ["-----BEGIN PGP PRIVATE KEY BLOCK-----", ""] + lines + ["-----END PGP PRIVATE KEY BLOCK-----"], lines
    if choice == 21:
        v = password(rng)
        return "password", [f"$ kubectl create secret generic db --from-literal=password={v}", "secret/db created"], [v]
    if choice == 22:
        v = password(rng)
        return "password", [rng.choice([f"the wifi pw is {v}", f"here's the router password: {v}", f"new password for the NAS → {v}"]),
                            "thx!"], [v]
    v = rand(rng, B32, 16)
    return "api_key", ["Set up authenticator app", "Or enter this key manually:", " ".join(v[i:i + 4] for i in range(0, 16, 4)),
                       "Time based: yes"], [v]


def second_negative_case(rng):
    choice = rng.randrange(13)
    if choice == 0:
        lines = ["$ kubectl get pods", "NAME                         READY   STATUS    RESTARTS   AGE"]
        for name in rng.sample(["web", "api", "worker", "cron"], 3):
            lines.append(f"{name}-{rand(rng, string.hexdigits.lower()[:16], 9)}-{rand(rng, string.ascii_lowercase + string.digits, 5)}   1/1     Running   0          {rng.randint(1, 30)}d")
        return lines
    if choice == 1:
        return [f"$ docker pull nginx:1.{rng.randint(20, 27)}", f"Digest: sha256:{hashlib.sha256(rng.randbytes(8)).hexdigest()}",
                f"Status: Downloaded newer image for nginx:1.{rng.randint(20, 27)}"]
    if choice == 2:
        return ["Shared with you", f"https://docs.google.com/document/d/{rand(rng, ALNUM + '-_', 44)}/edit",
                f"https://www.youtube.com/watch?v={rand(rng, ALNUM + '-_', 11)}"]
    if choice == 3:
        return ['"node_modules/lodash": {', '  "version": "4.17.21",',
                f'  "integrity": "sha512-{base64.b64encode(rng.randbytes(64)).decode()}"', "}"]
    if choice == 4:
        return [f"arn:aws:iam::{rand(rng, string.digits, 12)}:role/deploy-{rng.choice(['web', 'ci'])}",
                f"Instance i-0{rand(rng, '0123456789abcdef', 16)} in vpc-{rand(rng, '0123456789abcdef', 17)}"]
    if choice == 5:
        fpr = rand(rng, "0123456789ABCDEF", 40)
        return ["$ gpg --list-keys", "pub   rsa4096 2023-01-05 [SC]", "      " + " ".join(fpr[i:i + 4] for i in range(0, 40, 4)),
                "uid   [ultimate] Ana Souza <ana@example.org>"]
    if choice == 6:
        return [f"Booking reference {rand(rng, string.ascii_uppercase + string.digits, 6)}",
                f"Flight LH {rng.randint(100, 999)} · Seat {rng.randint(1, 40)}A · Gate B{rng.randint(1, 40)}",
                f"E-ticket 220-{rand(rng, string.digits, 10)}"]
    if choice == 7:
        return ["Receive bitcoin", "bc1q" + rand(rng, "023456789acdefghjklmnpqrstuvwxyz", 38),
                f"Transaction {hashlib.sha256(rng.randbytes(8)).hexdigest()}"]
    if choice == 8:
        mac = ":".join(rand(rng, "0123456789abcdef", 2) for _ in range(6))
        return ["$ ifconfig en0", f"\tether {mac}", f"\tinet6 fe80::{rand(rng, '0123456789abcdef', 4)}:{rand(rng, '0123456789abcdef', 4)}%en0",
                f"\tinet 192.168.1.{rng.randint(2, 250)} netmask 0xffffff00"]
    if choice == 9:
        return ["Two-factor authentication is on", f"Recovery codes: {rng.randint(2, 10)} left", "Last used 2 days ago"]
    if choice == 10:
        return [f"Your password was changed on {rng.randint(1, 28)} March 2025 at 14:{rng.randint(10, 59)}.",
                f"If this wasn't you, call 0800 {rng.randint(100, 999)} {rng.randint(1000, 9999)}."]
    if choice == 11:
        return ["USPS Tracking", " ".join(rand(rng, string.digits, 4) for _ in range(5)) + " " + rand(rng, string.digits, 2),
                f"FedEx {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}"]
    return ["CARD SALE", f"VISA **** {rand(rng, string.digits, 4)}", f"APPROVAL CODE {rand(rng, string.digits, 6)}",
            f"TOTAL EUR {rng.randint(5, 90)}.{rng.randint(10, 99)}"]


HEX = "0123456789abcdef"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


@functools.lru_cache(maxsize=1)
def bip39_words():
    """The BIP-39 list Lens ships, read once."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "Sources", "LensCore", "Assets", "bip39-english.txt")) as f:
        return [w.strip() for w in f if w.strip()]


def third_secret_case(rng):
    """The third pool (`--pool third`): written before the rules were run on it, from places
    secrets show up that neither earlier pool has (fine-grained GitHub tokens, PowerShell, .netrc,
    libpq and JDBC strings, Compose files, Wi-Fi QR text, hotspot and router screens, chats and
    e-mails, codes on their own line or in two groups, PINs, Twilio, Azure, Telegram, Shopify,
    DigitalOcean, Django, age, HTTP Basic, curl -u, recovery codes, seed phrases, zip -P, inline
    environment, net use, a labeled UUID, a card in a chat). A value is the secret without the
    fixed prefix a provider shows (`github_pat_`, `django-insecure-`, `AGE-SECRET-KEY-1`): eight
    characters of a public prefix are no leak."""
    user = rng.choice(["deploy", "admin", "ci", "app", "ana", "svc_backup", "ops"])
    host = rng.choice(["db.internal", "10.0.4.7", "pg.example.net", "sql-02.acme.io"])
    ssid = rng.choice(["HomeNet", "Pixel_7", "CasaSouza-5G", "ACME-Guest", "iPhone de Lea"])
    choice = rng.randrange(30)
    if choice == 0:
        v = rand(rng, ALNUM, 22) + "_" + rand(rng, ALNUM, 59)
        return "api_key", ["Fine-grained personal access tokens", "Make sure to copy your personal access token now.", "github_pat_" + v], [v]
    if choice == 1:
        k, s = "AKIA" + rand(rng, string.ascii_uppercase + string.digits, 16), rand(rng, ALNUM + "/+", 40)
        return "api_key", [f'PS C:\\Users\\{user}> $env:AWS_ACCESS_KEY_ID = "{k}"', f'PS C:\\Users\\{user}> $env:AWS_SECRET_ACCESS_KEY = "{s}"'], [k, s]
    if choice == 2:
        v = password(rng)
        return "password", ["$ cat ~/.netrc", f"machine api.heroku.com login {user}@acme.io password {v}"], [v]
    if choice == 3:
        v = password(rng)
        return "password", [f'$ psql "host={host} port=5432 dbname=app user={user} password={v} sslmode=require"'], [v]
    if choice == 4:
        v = password(rng)
        return "password", ["spring.datasource.url=", f"jdbc:mysql://{host}:3306/shop?user={user}&password={v}&useSSL=true"], [v]
    if choice == 5:
        v = password(rng)
        return "password", ["    environment:", f"      - POSTGRES_USER={user}", f"      - POSTGRES_PASSWORD={v}", "    ports:"], [v]
    if choice == 6:
        v = password(rng)
        return "password", ["Scanned QR code", f"WIFI:S:{ssid};T:WPA;P:{v};;", "Join network"], [v]
    if choice == 7:
        v = password(rng)
        return "password", ["Personal Hotspot", f"Network name      {ssid}", "Security          WPA2-Personal", f"Hotspot password  {v}"], [v]
    if choice == 8:
        v = rand(rng, string.ascii_lowercase + string.digits, 12)
        return "password", [f"SSID: {ssid}", f"Network Key (WPA2): {v}", "Admin page: 192.168.0.1"], [v]
    if choice == 9:
        v = password(rng)
        return "password", [f"staging login is {user} / {v}", "don't post it in #general pls"], [v]
    if choice == 10:
        v = password(rng)
        return "password", [f"Your temporary password is {v}. You will be asked to change it", "when you sign in for the first time."], [v]
    if choice == 11:
        v = rand(rng, string.digits, 6)
        return "otp", ["Your verification code is:", v, "This code expires in 15 minutes."], [v]
    if choice == 12:
        v = rand(rng, string.digits, 8)
        return "otp", [f"Your one-time passcode is {v[:4]} {v[4:]}", "If you didn't ask for it, ignore this e-mail."], [v]
    if choice == 13:
        v = rand(rng, string.digits, 4)
        return "otp", ["Acme Bank", f"Your new card PIN is {v}.", "Memorise it and delete this message."], [v]
    if choice == 14:
        sid, v = "AC" + rand(rng, HEX, 32), rand(rng, HEX, 32)
        return "api_key", ["Account Info", f"Account SID   {sid}", f"Auth Token    {v}", "My Twilio phone number"], [v]
    if choice == 15:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["Connection string", f"DefaultEndpointsProtocol=https;AccountName=acmefiles;AccountKey={v};EndpointSuffix=core.windows.net"], [v]
    if choice == 16:
        v = f"{rng.randint(10**8, 10**10 - 1)}:AA{rand(rng, ALNUM + '_-', 33)}"
        return "api_key", ["Done! Congratulations on your new bot.", "Use this token to access the HTTP API:", v, "Keep your token secure"], [v]
    if choice == 17:
        v = "shpat_" + rand(rng, HEX, 32)
        return "api_key", [f'$ curl -H "X-Shopify-Access-Token: {v}" https://acme.myshopify.com/admin/api/2024-01/shop.json'], [v]
    if choice == 18:
        v = "dop_v1_" + rand(rng, HEX, 64)
        return "api_key", [f"$ doctl auth init --access-token {v}", "Validating token... OK"], [v]
    if choice == 19:
        v = rand(rng, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50)
        return "api_key", ["# settings.py", "# SECURITY WARNING: keep the secret key used in production secret!", f"SECRET_KEY = 'django-insecure-{v}'"], [v]
    if choice == 20:
        v = rand(rng, BECH32.upper(), 58)
        pub = "age1" + rand(rng, BECH32, 58)
        return "api_key", ["# created: 2025-03-04T10:22:31Z", f"# public key: {pub}", "AGE-SECRET-KEY-1" + v], [v]
    if choice == 21:
        v = base64.b64encode(f"{user}:{password(rng)}".encode()).decode()
        return "api_key", ["Request Headers", "Accept: application/json", f"Authorization: Basic {v}", "Connection: keep-alive"], [v]
    if choice == 22:
        v = password(rng)
        return "password", [f"$ curl -u {user}:{v} https://api.acme.io/v1/reports", '{"reports": []}'], [v]
    if choice == 23:
        codes = [f"{rand(rng, HEX, 5)}-{rand(rng, HEX, 5)}" for _ in range(8)]
        return "api_key", ["Download your recovery codes", "Keep them somewhere safe. Each code can be used once."] + \
            [f"{codes[i]}    {codes[i + 1]}" for i in range(0, 8, 2)], codes
    if choice == 24:
        words = rng.sample(bip39_words(), 12)
        return "api_key", ["Secret Recovery Phrase", "Write down these 12 words in order."] + \
            [f"{i + 1}. {words[i]}    {i + 2}. {words[i + 1]}    {i + 3}. {words[i + 2]}" for i in range(0, 12, 3)], [" ".join(words)]
    if choice == 25:
        v = password(rng)
        return "password", [rng.choice([f"$ zip -P {v} backup.zip notes.txt", f"$ 7z a -p{v} backup.7z docs/"]), "  adding: notes.txt (deflated 61%)"], [v]
    if choice == 26:
        v = password(rng)
        return "password", [f"$ PGPASSWORD={v} psql -h {host} -U {user} sales", "sales=>"], [v]
    if choice == 27:
        v = password(rng)
        return "password", [f"C:\\> net use Z: \\\\fileserver\\finance /user:ACME\\{user} {v}", "The command completed successfully."], [v]
    if choice == 28:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ heroku config", f"HEROKU_API_KEY: {v}", "WEB_CONCURRENCY: 2"], [v]
    v = luhn_complete(rng, rng.choice(["4", "51", "2221"]), 16)
    return "card", [f"card is {' '.join(v[i:i + 4] for i in range(0, 16, 4))}, exp 09/28", "thanks!! will pay you back friday"], [v]


def third_negative_case(rng):
    choice = rng.randrange(15)
    if choice == 0:
        return ["$ shasum -a 256 backup.tar", f"{hashlib.sha256(rng.randbytes(8)).hexdigest()}  backup.tar"]
    if choice == 1:
        return [f"commit {hashlib.sha1(rng.randbytes(8)).hexdigest()}", "Author: Ana Souza <ana@example.org>",
                f"Date:   Tue Mar {rng.randint(1, 28)} 09:12:44 2025 +0100", "", "    Fix the export of empty notes"]
    if choice == 2:
        lines = ["REPOSITORY   TAG       IMAGE ID       CREATED       SIZE"]
        for name in rng.sample(["nginx", "postgres", "redis", "acme/api"], 3):
            lines.append(f"{name:12} latest    {rand(rng, HEX, 12)}   {rng.randint(2, 9)} days ago    {rng.randint(40, 400)}MB")
        return lines
    if choice == 3:
        return ["Password requirements", "At least 12 characters", "One number and one symbol", "Not a password you used before"]
    if choice == 4:
        return [f"Error code 0x8007{rand(rng, HEX.upper(), 4)}", f"Promo code SPRING{rng.randint(10, 40)} applied",
                f"Postal code {rand(rng, string.digits, 5)}", "Area code 415"]
    if choice == 5:
        return ["database:", "  password: ${DB_PASSWORD}", "  api_key: <your-api-key>", '  token: "{{ vault_token }}"']
    if choice == 6:
        return [f"POST /v1/charges 200 req_{rand(rng, ALNUM, 14)}", f"ch_3{rand(rng, ALNUM, 23)} succeeded",
                f"customer cus_{rand(rng, ALNUM, 14)}"]
    if choice == 7:
        return [f"Royal Mail {rand(rng, string.ascii_uppercase, 2)}{rand(rng, string.digits, 9)}GB",
                f"DHL Express {rand(rng, string.digits, 10)}", "Out for delivery"]
    if choice == 8:
        return ["Statement", f"Ref 000{rand(rng, string.digits, 9)}", f"Card ending {rand(rng, string.digits, 4)}",
                f"Balance £{rng.randint(100, 9000)}.{rng.randint(10, 99)}"]
    if choice == 9:
        return ["USER       PID %CPU %MEM    VSZ   RSS COMMAND",
                f"postgres  {rng.randint(1000, 9999)}  0.0  0.4 {rng.randint(200000, 300000)} {rng.randint(8000, 20000)} postgres: checkpointer",
                f"ana       {rng.randint(1000, 9999)}  1.2  2.1 {rng.randint(900000, 999999)} {rng.randint(80000, 200000)} /usr/bin/python3 app.py"]
    if choice == 10:
        return ["# requirements.txt", f"requests==2.31.0 --hash=sha256:{hashlib.sha256(rng.randbytes(8)).hexdigest()}"]
    if choice == 11:
        return [f"Merge pull request #{rng.randint(100, 9999)} from ana/fix-login", f"feature/ACME-{rng.randint(100, 9999)}-fix-login",
                f"{rng.randint(2, 40)} files changed, {rng.randint(10, 400)} insertions(+)"]
    if choice == 12:
        return ["Hotel Lisboa Centro", f"Confirmation number {rand(rng, string.digits, 8)}", "Check-in 15:00 · Check-out 11:00"]
    if choice == 13:
        return ["$ kubectl get secrets", "NAME          TYPE     DATA   AGE", f"db-password   Opaque   2      {rng.randint(1, 90)}d",
                f"api-token     Opaque   1      {rng.randint(1, 90)}d"]
    return [f'<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{base64.b64encode(rng.randbytes(30)).decode()}">']


def fourth_secret_case(rng):
    """The fourth pool (`--pool fourth`): written after the third pool had been through seven
    rounds, before any rule was run on it, from places none of the earlier pools has: SQL that
    sets a password, PHP and Laravel config, Terraform, Ansible, `docker run -e`, `.pgpass`, a
    Kubernetes Secret's base64, Docker's `config.json`, Python's `auth=`, Jupyter's URL, Vault,
    Discord, Mailgun, Mailchimp, Stripe webhooks, PyPI, Groq, Cloudflare, X's bearer tokens,
    WireGuard and OpenVPN keys, a service account's JSON, `gh secret set`, `setx`, app passwords
    (Apple's, Google's), a password generator, PPPoE and SMTP settings, a bank's OTP with an
    amount, Steam Guard codes, a card form with its CVV. A value leaves out a public prefix."""
    user = rng.choice(["deploy", "admin", "ci", "app", "lea", "svc_report", "ops"])
    host = rng.choice(["db.internal", "10.0.8.21", "pg.example.net", "mysql-3.acme.io"])
    choice = rng.randrange(30)
    if choice == 0:
        v = password(rng)
        return "password", ["mysql> " + rng.choice([f"CREATE USER '{user}'@'%' IDENTIFIED BY '{v}';", f"ALTER USER '{user}'@'localhost' IDENTIFIED BY '{v}';"]),
                            "Query OK, 0 rows affected (0.01 sec)"], [v]
    if choice == 1:
        v = password(rng)
        return "password", [f"postgres=# ALTER ROLE {user} WITH LOGIN PASSWORD '{v}';", "ALTER ROLE"], [v]
    if choice == 2:
        v = password(rng)
        return "password", ["/** Database password */", f"define( 'DB_PASSWORD', '{v}' );", "", "/** Database hostname */"], [v]
    if choice == 3:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["APP_NAME=Laravel", "APP_ENV=production", f"APP_KEY=base64:{v}", "APP_DEBUG=false"], [v]
    if choice == 4:
        v = password(rng)
        return "password", ['resource "azurerm_mssql_server" "main" {', '  administrator_login          = "sqladmin"',
                            f'  administrator_login_password = "{v}"', "}"], [v]
    if choice == 5:
        v = password(rng)
        return "password", ["[webservers]", f"web1 ansible_host=10.0.0.5 ansible_user={user} ansible_password={v}"], [v]
    if choice == 6:
        v = password(rng)
        return "password", [f"$ docker run -d -e MYSQL_ROOT_PASSWORD={v} -p 3306:3306 mysql:8", rand(rng, HEX, 64)], [v]
    if choice == 7:
        v = password(rng)
        return "password", ["$ cat ~/.pgpass", f"{host}:5432:sales:{user}:{v}"], [v]
    if choice == 8:
        v = base64.b64encode(password(rng).encode()).decode()
        return "password", ["apiVersion: v1", "kind: Secret", "data:", f"  password: {v}", "type: Opaque"], [v]
    if choice == 9:
        v = base64.b64encode(f"{user}:{password(rng)}".encode()).decode()
        return "password", ["$ cat ~/.docker/config.json", '{"auths": {"registry.acme.io": {', f'    "auth": "{v}"', "}}}"], [v]
    if choice == 10:
        v = password(rng)
        return "password", [f'r = requests.get(url, auth=("{user}", "{v}"))', "print(r.status_code)"], [v]
    if choice == 11:
        v = rand(rng, HEX, 48)
        return "api_key", ["    To access the server, open this file in a browser:", "    Or copy and paste one of these URLs:",
                           f"        http://127.0.0.1:8888/lab?token={v}"], [v]
    if choice == 12:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f"$ export VAULT_TOKEN=hvs.{v}", "$ vault kv get secret/app"], [v]
    if choice == 13:
        v = base64.b64encode(str(rng.randint(10**17, 10**18 - 1)).encode()).decode().rstrip("=") + "." + rand(rng, ALNUM + "-_", 6) + "." + rand(rng, ALNUM + "-_", 38)
        return "api_key", ["Bot", "TOKEN", v, "Reset Token"], [v]
    if choice == 14:
        v = rand(rng, HEX, 32)
        return "api_key", ["Mailgun API keys", f"Private API key   key-{v}", "Public validation key"], [v]
    if choice == 15:
        v = rand(rng, HEX, 32)
        return "api_key", ["Your API keys", f"{v}-us{rng.randint(1, 21)}   Created Mar 4, 2025   Label: shop-sync"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["Signing secret", f"whsec_{v}", "Use this secret to verify webhook signatures."], [v]
    if choice == 17:
        v = rand(rng, ALNUM + "-_", 80)
        return "api_key", ["[pypi]", "  username = __token__", f"  password = pypi-AgEIcHlwaS5vcmc{v}"], [v]
    if choice == 18:
        v = rand(rng, ALNUM, 52)
        return "api_key", ["from groq import Groq", f'client = Groq(api_key="gsk_{v}")'], [v]
    if choice == 19:
        v = rand(rng, ALNUM + "-_", 40)
        return "api_key", ["Your API token was successfully created", "Copy this token to access the Cloudflare API.", v], [v]
    if choice == 20:
        v = rand(rng, ALNUM + "%", 90)
        return "api_key", ["Bearer Token", "AAAAAAAAAAAAAAAAAAAAA" + v, "Regenerate"], [v]
    if choice == 21:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["[Interface]", f"PrivateKey = {v}", "Address = 10.8.0.2/24", "DNS = 1.1.1.1"], [v]
    if choice == 22:
        lines = [rand(rng, HEX, 32) for _ in range(5)]
        return "api_key", ["<tls-auth>", "-----BEGIN OpenVPN Static key V1-----"] + lines, lines
    if choice == 23:
        v = base64.b64encode(rng.randbytes(45)).decode()
        return "api_key", ['  "type": "service_account",', '  "private_key_id": "' + rand(rng, HEX, 40) + '",',
                           f'  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC{v}\\n'], [v]
    if choice == 24:
        v = "npm_" + rand(rng, ALNUM, 36)
        return "api_key", [rng.choice([f'$ gh secret set NPM_TOKEN --body "{v}"', f'C:\\> setx NPM_TOKEN "{v}"']), "✓ Set secret NPM_TOKEN"], [v]
    if choice == 25:
        v = "-".join(rand(rng, string.ascii_lowercase, 4) for _ in range(4))
        shown = v if rng.random() < 0.5 else v.replace("-", " ")
        return "password", [rng.choice(["App-Specific Password", "Your app password for your device"]), shown,
                            "Enter it in the app's password field."], [v.replace("-", "")]
    if choice == 26:
        v = password(rng)
        return "password", ["Generated password", v, "Copy   Regenerate   Length 16"], [v]
    if choice == 27:
        v = password(rng)
        return "password", rng.choice([["PPPoE Username   " + user + "@fibre-isp", f"PPPoE Password   {v}", "MTU 1492"],
                                       ["SMTP server   smtp.acme.io   Port 587", f"Username   {user}@acme.io", f"Password   {v}"]]), [v]
    if choice == 28:
        v = rand(rng, string.digits, 6)
        line, shown = rng.choice([(f"{v} is the OTP for your txn of INR 2,500.00 at AMAZON. Valid for 5 mins. Do not share.", v),
                                  (f"Your Steam Guard code: {rand(rng, 'BCDFGHJKMNPQRTVWXY23456789', 5)}", None),
                                  (f"Dear customer, use OTP {v} to confirm payment of EUR 84.20 to ACME GMBH.", v)])
        if shown is None:
            shown = line.rsplit(" ", 1)[1]
        return "otp", ["Messages", line, "now"], [shown]
    v = luhn_complete(rng, rng.choice(["4", "51", "2221"]), 16)
    return "card", ["Pay with card", f"Card number   {' '.join(v[i:i + 4] for i in range(0, 16, 4))}", "Expiry   09/28     CVV   381"], [v]


def fourth_negative_case(rng):
    choice = rng.randrange(15)
    if choice == 0:
        return ["[Peer]", f"PublicKey = {base64.b64encode(rng.randbytes(32)).decode()}", "Endpoint = vpn.acme.io:51820",
                "AllowedIPs = 0.0.0.0/0", "PersistentKeepalive = 25"]
    if choice == 1:
        return ["$ cat ~/.ssh/authorized_keys", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(rng.randbytes(32)).decode().rstrip('=')} ana@laptop"]
    if choice == 2:
        return [f"The authenticity of host 'git.acme.io ({rng.randint(10, 200)}.0.2.{rng.randint(2, 250)})' can't be established.",
                f"ED25519 key fingerprint is SHA256:{base64.b64encode(rng.randbytes(32)).decode().rstrip('=')}.",
                "Are you sure you want to continue connecting (yes/no)?"]
    if choice == 3:
        return ["version https://git-lfs.github.com/spec/v1", f"oid sha256:{hashlib.sha256(rng.randbytes(8)).hexdigest()}",
                f"size {rng.randint(10000, 9999999)}"]
    if choice == 4:
        return [f"From 0x{rand(rng, HEX, 40)}", f"Txn Hash 0x{rand(rng, HEX, 64)}", f"Block {rng.randint(18000000, 20000000)}"]
    if choice == 5:
        return ["About", f"Serial Number   C02{rand(rng, string.ascii_uppercase + string.digits, 9)}",
                f"IMEI   {luhn_complete(rng, '35', 15)}", f"Model Number   A{rng.randint(2000, 2999)}"]
    if choice == 6:
        return [f"mysql> GRANT SELECT, INSERT ON shop.* TO 'app'@'10.0.%';", "Query OK, 0 rows affected (0.00 sec)",
                "mysql> FLUSH PRIVILEGES;"]
    if choice == 7:
        lines = ["CONTAINER ID   IMAGE          STATUS        NAMES"]
        for name in rng.sample(["web", "db", "cache", "worker"], 3):
            lines.append(f"{rand(rng, HEX, 12)}   acme/{name}:2.4   Up {rng.randint(2, 50)} hours   {name}_1")
        return lines
    if choice == 8:
        return [f"ASIN   B0{rand(rng, string.ascii_uppercase + string.digits, 8)}", f"Item model number   {rand(rng, string.ascii_uppercase, 2)}-{rng.randint(1000, 9999)}",
                f"Customer reviews   4.{rng.randint(1, 9)} out of 5"]
    if choice == 9:
        return ["Sign-in & security", "Password   ••••••••••   Change", f"Last changed {rng.randint(2, 11)} months ago",
                "2-Step Verification   On"]
    if choice == 10:
        return ["HTTP/2 200", f"x-request-id: {uuid.UUID(bytes=rng.randbytes(16))}", f'etag: "{hashlib.sha1(rng.randbytes(8)).hexdigest()}"',
                "cache-control: max-age=3600"]
    if choice == 11:
        return [f"ami-0{rand(rng, HEX, 16)}   t3.micro   running", f"sg-0{rand(rng, HEX, 16)}   launch-wizard-1",
                f"subnet-0{rand(rng, HEX, 16)}   eu-west-1a"]
    if choice == 12:
        return ["dist/assets", f"  index-{rand(rng, ALNUM, 8)}.js    142.31 kB", f"  index-{rand(rng, ALNUM, 8)}.css    12.08 kB",
                f"✓ built in {rng.randint(2, 9)}.{rng.randint(10, 99)}s"]
    if choice == 13:
        return ["Join Zoom Meeting", f"Meeting ID: {rng.randint(800, 899)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}",
                f"Dial by your location +1 646 558 {rand(rng, string.digits, 4)} US (New York)"]
    return [f"Event ID   {rand(rng, HEX, 32)}", f"Release   2.{rng.randint(0, 9)}.{rng.randint(0, 9)}+build.{rng.randint(1000, 9999)}",
            f"Trace   {rand(rng, HEX, 32)}"]


def fifth_secret_case(rng):
    """The fifth pool (`--pool fifth`): written after the fourth pool had been through six rounds,
    before any rule was run on it, from places none of the earlier pools has: `keytool`, `openssl`
    and `htpasswd`/`rabbitmqctl` arguments, `ldapsearch -w`, `smbclient -U user%pass`, `sqlcmd -P`,
    `nmcli … password`, Maven's `settings.xml`, .NET's `app.config`, Gradle properties, `.yarnrc.yml`,
    `.databrickscfg`, Sentry, Linear, Notion, Postman, New Relic, Tailscale, Figma and Google OAuth
    client secrets, `aws configure`'s prompts, presigned S3 and Azure SAS signatures, a kubeconfig's
    `client-key-data`, `redis://:pass@`, a meeting passcode, an `otpauth://` URI, a BitLocker
    recovery key, a product key, a wallet's private key, codes in German, French, Spanish and
    Portuguese, `pw:` in a chat, secrets assigned in source code, a German transfer form, a virtual
    card. A value leaves out a public prefix."""
    user = rng.choice(["deploy", "admin", "ci", "jonas", "svc_etl", "ops", "build"])
    host = rng.choice(["db.internal", "10.1.2.40", "sql.example.net", "ldap.acme.io"])
    choice = rng.randrange(34)
    if choice == 0:
        v = password(rng)
        return "password", [f"$ keytool -genkeypair -alias app -keystore app.jks -storepass {v} -keypass {v}",
                            "Generating 2,048 bit RSA key pair and self-signed certificate"], [v]
    if choice == 1:
        v = password(rng)
        return "password", [rng.choice([f"$ openssl enc -aes-256-cbc -salt -in notes.txt -out notes.enc -pass pass:{v}",
                                         f"$ openssl pkcs12 -export -in cert.pem -inkey key.pem -out app.p12 -passout pass:{v}"])], [v]
    if choice == 2:
        v = password(rng)
        return "password", [rng.choice([f"$ sudo htpasswd -b -c /etc/nginx/.htpasswd {user} {v}", f"$ sudo rabbitmqctl add_user {user} {v}"]),
                            rng.choice(["Adding password for user " + user, f'Adding user "{user}" ...'])], [v]
    if choice == 3:
        v = password(rng)
        return "password", [f'$ ldapsearch -x -H ldap://{host} -D "cn=admin,dc=acme,dc=io" -w {v} -b "dc=acme,dc=io"', "# extended LDIF"], [v]
    if choice == 4:
        v = password(rng)
        return "password", [f"$ smbclient //fileserver/finance -U {user}%{v}", "Try \"help\" to get a list of possible commands.", "smb: \\>"], [v]
    if choice == 5:
        v = password(rng)
        return "password", ["<servers>", "  <server>", "    <id>nexus-releases</id>", f"    <username>{user}</username>",
                            f"    <password>{v}</password>", "  </server>"], [v]
    if choice == 6:
        v = password(rng)
        return "password", ["<connectionStrings>", f'  <add name="Shop" connectionString="Server={host};Database=shop;User Id=sa;Password={v};" />',
                            "</connectionStrings>"], [v]
    if choice == 7:
        v = password(rng)
        return "password", ["# gradle.properties", "signing.keyId=" + rand(rng, HEX, 8).upper(),
                            rng.choice([f"signing.password={v}", f"ossrhPassword={v}"]), "org.gradle.jvmargs=-Xmx2g"], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 36)
        return "api_key", ["# .yarnrc.yml", "npmRegistryServer: \"https://npm.acme.io\"", f'npmAuthToken: "{v}"'], [v]
    if choice == 9:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ cat ~/.databrickscfg", "[DEFAULT]", "host = https://adb-" + rand(rng, string.digits, 16) + ".7.azuredatabricks.net",
                           f"token = dapi{v}"], [v]
    if choice == 10:
        v = rand(rng, ALNUM, 60) + "_" + rand(rng, ALNUM, 43)
        return "api_key", ["# .sentryclirc / CI variables", f"SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOj{v}"], [v]
    if choice == 11:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["Personal API keys", f"ci-sync   lin_api_{v}", "Created just now · Copy it now, it won't be shown again"], [v]
    if choice == 12:
        v = rand(rng, string.digits, 11) + rand(rng, ALNUM, 35)
        return "api_key", ["from notion_client import Client", f'notion = Client(auth="ntn_{v}")'], [v]
    if choice == 13:
        v = rand(rng, HEX, 24) + "-" + rand(rng, HEX, 34)
        return "api_key", ["Postman API Keys", "Key generated", f"PMAK-{v}"], [v]
    if choice == 14:
        v = rand(rng, string.ascii_uppercase + string.digits, 27)
        return "api_key", [f'$ curl -X POST https://api.newrelic.com/graphql -H "API-Key: NRAK-{v}"'], [v]
    if choice == 15:
        v = rand(rng, ALNUM, 11) + "CNTRL-" + rand(rng, ALNUM, 33)
        return "api_key", [f"$ sudo tailscale up --authkey=tskey-auth-k{v}", "Success."], [v]
    if choice == 16:
        v = rand(rng, ALNUM + "-_", 40)
        return "api_key", ["Personal access tokens", "Copy this token now. You won't be able to see it again.", f"figd_{v}"], [v]
    if choice == 17:
        v = rand(rng, ALNUM + "-_", 28)
        return "api_key", rng.choice([['{"web": {', f'  "client_id": "{rand(rng, string.digits, 12)}-{rand(rng, string.ascii_lowercase + string.digits, 32)}.apps.googleusercontent.com",',
                                       f'  "client_secret": "GOCSPX-{v}",', '  "redirect_uris": ["http://localhost:8080/callback"]'],
                                      [f"$ curl -d client_id=acme-web -d client_secret=GOCSPX-{v} -d grant_type=client_credentials https://oauth2.googleapis.com/token"]]), [v]
    if choice == 18:
        v = rand(rng, ALNUM + "/+", 40)
        return "api_key", ["$ aws configure", f"AWS Access Key ID [None]: AKIA{rand(rng, string.ascii_uppercase + '234567', 16)}",
                           f"AWS Secret Access Key [None]: {v}", "Default region name [None]: eu-west-1"], [v]
    if choice == 19:
        v = rand(rng, HEX, 64)
        return "api_key", ["https://acme-reports.s3.amazonaws.com/q3.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256",
                           f"&X-Amz-Credential=AKIA{rand(rng, string.ascii_uppercase + '234567', 16)}%2F20250304%2Feu-west-1%2Fs3%2Faws4_request",
                           "&X-Amz-Date=20250304T102233Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host", f"&X-Amz-Signature={v}"], [v]
    if choice == 20:
        raw = base64.b64encode(rng.randbytes(32)).decode()
        v = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        return "api_key", ["SAS token", f"sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2025-12-31T23:59:59Z&spr=https&sig={v}"], [v]
    if choice == 21:
        v = base64.b64encode(rng.randbytes(45)).decode()
        return "api_key", ["users:", f"- name: {user}", "  user:", "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t",
                           f"    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF{v}"], [v]
    if choice == 22:
        v = password(rng)
        return "password", [rng.choice([f"REDIS_URL=redis://:{v}@cache.acme.io:6379/0", f"broker_url = 'redis://:{v}@10.0.0.9:6379/1'"]), "CELERY_CONCURRENCY=4"], [v]
    if choice == 23:
        v = rng.choice([rand(rng, string.digits, 6), rand(rng, ALNUM, 6)])
        return "otp", ["Join Zoom Meeting", f"https://acme.zoom.us/j/{rand(rng, string.digits, 11)}", f"Meeting ID: 8{rand(rng, string.digits, 2)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}",
                       f"Passcode: {v}"], [v]
    if choice == 24:
        v = rand(rng, B32, 32)
        return "api_key", ["Scanned QR code", f"otpauth://totp/Acme:{user}@acme.io?secret={v}&issuer=Acme", "Add account"], [v]
    if choice == 25:
        groups = []
        for _ in range(8):
            groups.append(f"{rng.randint(0, 65535) * 11:06d}")
        v = "-".join(groups)
        return "api_key", ["BitLocker recovery key", f"Key ID: {rand(rng, HEX, 8).upper()}", f"Recovery key: {v}"], [v]
    if choice == 26:
        v = "-".join(rand(rng, "BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5))
        return "api_key", ["Activation", rng.choice([f"Product key: {v}", f"Enter a product key   {v}"]), "Windows is not activated."], [v]
    if choice == 27:
        v = rand(rng, HEX, 64)
        return "api_key", ["Export private key", "Never disclose this key. Anyone with your private key can steal your assets.",
                           rng.choice([v, "0x" + v])], [v]
    if choice == 28:
        v = password(rng)
        return "password", [rng.choice([f'$ nmcli device wifi connect "Office-5G" password {v}', f"$ sqlcmd -S {host} -U sa -P {v} -Q \"SELECT 1\""]),
                            rng.choice(["Device 'wlp2s0' successfully activated.", "(1 rows affected)"])], [v]
    if choice == 29:
        v = rand(rng, string.digits, 6)
        line = rng.choice([f"Ihr Bestätigungscode lautet {v}. Geben Sie ihn nicht weiter.", f"Votre code de vérification est {v}.",
                           f"Tu código de verificación es {v}", f"Seu código de acesso é {v}. Não compartilhe."])
        return "otp", ["Nachrichten" if line.startswith("Ihr") else "Messages", line, "14:02"], [v]
    if choice == 30:
        v = password(rng)
        return "password", ["#ops", rng.choice([f"{user}: staging box is up, user root pw: {v}", f"creds for the demo → user: {user} / pwd: {v}",
                                                 f"passwd for the kiosk is {v} fyi"]), "thx!"], [v]
    if choice == 31:
        v = rand(rng, ALNUM, 32)
        return "api_key", [rng.choice([f'const apiSecret = "{v}";', f'let clientSecret = "{v}"', f'os.environ["PAYMENTS_API_KEY"] = "{v}"',
                                       f'private static final String API_TOKEN = "{v}";']), "// TODO: move to the vault"], [v]
    if choice == 32:
        v = iban(rng)
        return "iban", ["Überweisung", "Empfänger   Lea Brandt", f"IBAN   {v}", "Betrag   240,00 EUR"], [v.replace(" ", "")]
    v = luhn_complete(rng, rng.choice(["4", "53", "2720"]), 16)
    return "card", ["Virtual card", f"{' '.join(v[i:i + 4] for i in range(0, 16, 4))}", f"Valid thru 11/29   Security code {rand(rng, string.digits, 3)}"], [v]


def fifth_negative_case(rng):
    choice = rng.randrange(15)
    if choice == 0:
        return ["https://shop.acme.io/p/boots?utm_source=google&utm_medium=cpc",
                f"&gclid={rand(rng, ALNUM + '_-', 64)}", f"&fbclid=IwAR{rand(rng, ALNUM + '_-', 56)}"]
    if choice == 1:
        return [f'<script src="/js/app.{rand(rng, HEX, 8)}.js"', f'  integrity="sha384-{base64.b64encode(rng.randbytes(48)).decode()}"',
                '  crossorigin="anonymous"></script>']
    if choice == 2:
        return ['.icon {', f"  background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{base64.b64encode(rng.randbytes(45)).decode()});", "}"]
    if choice == 3:
        body = base64.b64encode(rng.randbytes(150)).decode()
        return ["-----BEGIN CERTIFICATE-----", "MIIDdzCCAl+gAwIBAgIE" + body[:44]] + [body[i:i + 64] for i in range(44, len(body), 64)] + ["-----END CERTIFICATE-----"]
    if choice == 4:
        body = base64.b64encode(rng.randbytes(110)).decode()
        return [f"commit {rand(rng, HEX, 40)}", "gpgsig -----BEGIN PGP SIGNATURE-----", " ", " iQIzBAABCAAdFiEE" + body[:48]] + \
            [" " + body[i:i + 64] for i in range(48, len(body), 64)] + [" -----END PGP SIGNATURE-----"]
    if choice == 5:
        return ["$ kubectl describe secret default-token", "Type:  kubernetes.io/service-account-token", "Data", "====",
                f"ca.crt:     {rng.randint(1000, 1200)} bytes", "namespace:  7 bytes", f"token:      {rng.randint(900, 990)} bytes"]
    if choice == 6:
        return ["Overview", f"Application (client) ID   {uuid.UUID(bytes=rng.randbytes(16))}", f"Directory (tenant) ID   {uuid.UUID(bytes=rng.randbytes(16))}",
                "Client credentials   0 certificate, 1 secret"]
    if choice == 7:
        return ["C:\\> net user " + rng.choice(["ana", "jonas"]), f"Password last set            {rng.randint(1, 12)}/{rng.randint(1, 28)}/2025 9:14:02 AM",
                "Password expires             Never", f"Password changeable          {rng.randint(1, 12)}/{rng.randint(1, 28)}/2025 9:14:02 AM",
                "Password required            Yes"]
    if choice == 8:
        return ['const passwordInput = document.getElementById("password");', "if (passwordInput.value.length < 12) {",
                '  showError("passwordTooShort");', "}"]
    if choice == 9:
        return ["db_password: !vault |", "  $ANSIBLE_VAULT;1.1;AES256"] + ["  " + rand(rng, string.digits + "abcdef", 80) for _ in range(3)]
    if choice == 10:
        mac = "-".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(6))
        return ["Wireless LAN adapter Wi-Fi:", f"   Physical Address. . . . . . . . . : {mac}", f"   DHCPv6 IAID . . . . . . . . . . . : {rng.randint(10**8, 10**9)}",
                "   DHCPv6 Client DUID. . . . . . . . : 00-01-00-01-" + "-".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(10))]
    if choice == 11:
        return ["Tracking", f"USPS   9400 1{rand(rng, string.digits, 3)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 2)}",
                f"FedEx   {rand(rng, string.digits, 12)}", "Out for delivery"]
    if choice == 12:
        return [":root {", f"  --accent: #{rand(rng, HEX, 6)};", f"  --muted: #{rand(rng, HEX, 6)};",
                f"  font-family: 'Inter-{rand(rng, ALNUM, 8)}', sans-serif;", "}"]
    if choice == 13:
        return ["About", f"Device ID   {str(uuid.UUID(bytes=rng.randbytes(16))).upper()}", f"Product ID   00330-{rand(rng, string.digits, 5)}-{rand(rng, string.digits, 5)}-AA{rand(rng, string.digits, 3)}",
                "Windows is activated with a digital license"]
    return [f"s3://acme-public/logo.png?versionId={rand(rng, ALNUM + '._', 32)}", f"ETag: {rand(rng, HEX, 32)}", "Last modified: March 4, 2025"]


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def sixth_secret_case(rng):
    """The sixth pool (`--pool sixth`): written after the fifth pool had been through eight rounds,
    before any rule was run on it, from places none of the earlier pools has: Cisco configs
    (`password 7`, `enable password`, SNMP communities), `expect` scripts, `helm --set`, `docker run
    -e`, a command's output that is the password (`base64 -d`, `pass show`, `op read`), AWS Secrets
    Manager's escaped JSON, a password manager's CSV export, a table with a password column,
    Jupyter and password-reset links, session cookies, `X-API-Key` headers, Atlassian, Grafana,
    Discord, Telegram, Azure, Doppler, Pulumi and 1Password tokens, a PuTTY key file, a WIF private
    key, codes in Italian, Dutch, Polish, Swedish and Turkish, domain-bound and split codes, door
    and gate codes, `hostapd`/`wpa_supplicant` passphrases, rclone and s3cmd configs, a name/value
    pair in a settings page, `cmdkey`/`psexec`, `lftp -u user,pass` and CIFS mount options, IPsec
    pre-shared keys, `user / pass` in a chat, an OAuth token in a URL fragment, device sign-in
    codes, Amex and Diners card groupings, a US account number. A value leaves out a public prefix."""
    user = rng.choice(["deploy", "admin", "ci", "marta", "svc_backup", "ops", "kiosk"])
    host = rng.choice(["db.internal", "10.4.0.21", "files.acme.io", "vpn.example.net"])
    choice = rng.randrange(34)
    if choice == 0:
        v = rng.choice([rand(rng, "0123456789ABCDEF", rng.choice([16, 20, 24])), password(rng)])
        seven = v if all(c in "0123456789ABCDEF" for c in v) else None
        line = rng.choice([f" username {user} privilege 15 password 7 {seven}" if seven else f" username {user} privilege 15 password 0 {v}",
                           f"enable password {v}", f"snmp-server community {v} RO"])
        return "password", ["Router# show running-config", "hostname edge-01", "!", line, "!", "line vty 0 4"], [v]
    if choice == 1:
        v = password(rng)
        return "password", ["#!/usr/bin/expect -f", f"spawn ssh {user}@{host}", 'expect "assword:"', f'send "{v}\\r"', "interact"], [v]
    if choice == 2:
        v = password(rng)
        return "password", [f"$ helm install db bitnami/postgresql --set {rng.choice(['auth.postgresPassword', 'global.redis.password', 'auth.rootPassword'])}={v}",
                            "NAME: db", "STATUS: deployed"], [v]
    if choice == 3:
        v = password(rng)
        return "password", [f"$ docker run -d --name db -e {rng.choice(['POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'MARIADB_PASSWORD'])}={v} -p 5432:5432 postgres:16",
                            rand(rng, HEX, 64)], [v]
    if choice == 4:
        v = password(rng)
        command = rng.choice(["$ kubectl get secret db-creds -o jsonpath='{.data.password}' | base64 -d", "$ pass show email/fastmail",
                              '$ op read "op://Private/Postgres/password"', "$ security find-generic-password -s office-wifi -w"])
        return "password", [command, v, "$ "], [v]
    if choice == 5:
        v = password(rng).replace("\\", "")
        return "password", ["$ aws secretsmanager get-secret-value --secret-id prod/db", "{",
                            f'    "SecretString": "{{\\"username\\":\\"{user}\\",\\"password\\":\\"{v}\\"}}",', '    "VersionStages": ["AWSCURRENT"]', "}"], [v]
    if choice == 6:
        v = password(rng).replace(",", "")
        return "password", ["passwords.csv", "name,url,username,password,note", f"GitHub,https://github.com/login,{user},{v},",
                            "Netflix,https://netflix.com,marta@acme.io,********,"], [v]
    if choice == 7:
        v = password(rng)
        return "password", ["Service        Login            Password", f"VPN            {user}           {v}", "Printer        admin            (none)"], [v]
    if choice == 8:
        v = rand(rng, HEX, 48)
        return "api_key", ["To access the server, open this file in a browser:", "Or copy and paste one of these URLs:",
                           f"    http://127.0.0.1:8888/lab?token={v}"], [v]
    if choice == 9:
        v = rand(rng, ALNUM + "-_", rng.choice([20, 32, 43]))
        return "api_key", ["Reset your password", rng.choice([f"https://app.acme.io/users/password/edit?reset_password_token={v}",
                                                               f"https://acme.io/auth/magic-link?token={v}&email={user}%40acme.io"]),
                           "This link expires in 1 hour."], [v]
    if choice == 10:
        v = rand(rng, string.ascii_lowercase + string.digits, 32)
        return "api_key", ["Request Headers", "Accept: text/html", rng.choice([f"Cookie: _ga=GA1.2.{rand(rng, string.digits, 9)}.{rand(rng, string.digits, 10)}; sessionid={v}; theme=dark",
                                                                            f"Set-Cookie: connect.sid=s%3A{v}.{rand(rng, ALNUM, 20)}; Path=/; HttpOnly"])], [v]
    if choice == 11:
        v = rand(rng, ALNUM, 40)
        return "api_key", [rng.choice([f'$ curl -H "x-api-key: {v}" https://api.acme.io/v2/orders', f"$ http GET api.acme.io/v1/items X-API-Key:{v}"]),
                           '{"orders": []}'], [v]
    if choice == 12:
        v = rand(rng, ALNUM + "-_", 180) + "=" + rand(rng, "0123456789ABCDEF", 8)
        return "api_key", ["API token created", "Copy your token. You won't be able to see it again.", f"ATATT3xFfGF0{v}"], [v]
    if choice == 13:
        v = rand(rng, ALNUM, 32) + "_" + rand(rng, HEX, 8)
        return "api_key", ["Service accounts › grafana-ci", "Add service account token", f"glsa_{v}"], [v]
    if choice == 14:
        head = base64.b64encode(str(rng.randint(10**17, 10**18)).encode()).decode().rstrip("=")
        v = rand(rng, ALNUM + "-_", 6) + "." + rand(rng, ALNUM + "-_", 38)
        return "api_key", ["import discord", "client = discord.Client(intents=intents)", f'client.run("{head}.{v}")'], [v]
    if choice == 15:
        v = "AA" + rand(rng, ALNUM + "-_", 33)
        return "api_key", ["BotFather", "Done! Congratulations on your new bot.", "Use this token to access the HTTP API:",
                           f"{rng.randint(10**9, 8 * 10**9)}:{v}", "Keep your token secure and store it safely"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 3) + "8Q~" + rand(rng, ALNUM + "~._-", 34)
        return "api_key", ["Certificates & secrets", "Description   Expires   Value   Secret ID", f"ci-deploy   3/4/2026   {v}   {uuid.UUID(bytes=rng.randbytes(16))}"], [v]
    if choice == 17:
        prefix, v = rng.choice([("dp.st.prd.", rand(rng, ALNUM, 40)), ("pul-", rand(rng, HEX, 40)), ("ops_eyJ", rand(rng, ALNUM, 120))])
        return "api_key", [rng.choice(["Service token created", "Access token created", "Service account token"]), f"{prefix}{v}", "Store it in a safe place."], [v]
    if choice == 18:
        body = base64.b64encode(rng.randbytes(rng.choice([32, 48]))).decode()
        return "api_key", ["PuTTY-User-Key-File-3: ssh-ed25519", "Encryption: none", f"Comment: {user}@laptop", "Public-Lines: 2",
                           "AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(rng, ALNUM, 39), "Private-Lines: 1", body, f"Private-MAC: {rand(rng, HEX, 64)}"], [body]
    if choice == 19:
        v = rng.choice(["5", "K", "L"]) + rand(rng, B58, 50)
        return "api_key", ["Export private key", "Format: WIF", f"Private key: {v}" if rng.random() < 0.5 else v, "Anyone with this key can spend your coins."], [v]
    if choice == 20:
        v = rand(rng, string.digits, 6)
        line = rng.choice([f"Il tuo codice di verifica è {v}. Non condividerlo.", f"Je verificatiecode is {v}.", f"Twój kod weryfikacyjny to {v}",
                           f"Din verifieringskod är {v}", f"Doğrulama kodunuz: {v}"])
        return "otp", ["Messages", line, "09:41"], [v]
    if choice == 21:
        v = rand(rng, string.digits, 6)
        if rng.random() < 0.5:
            return "otp", [f"{v} is your Acme verification code.", "", f"@acme.com #{v}"], [v]
        shown = f"{v[:3]}-{v[3:]}"
        return "otp", ["Confirm your email address", f"Your confirmation code is {shown}", "Enter it in the open browser window."], [shown]
    if choice == 22:
        v = rand(rng, string.digits, rng.choice([4, 5, 6]))
        return "password", ["Airbnb · Host", rng.choice([f"the gate code is {v}# and the flat is on the 3rd floor", f"Door code: {v}", f"alarm code is {v}, disarm within 30s",
                                                       f"lockbox code {v} (key inside)"]), "See you tomorrow!"], [v]
    if choice == 23:
        v = password(rng)
        return "password", rng.choice([["# /etc/hostapd/hostapd.conf", "ssid=Acme-Office", "wpa=2", f"wpa_passphrase={v}", "wpa_key_mgmt=WPA-PSK"],
                                       ["network={", '    ssid="Acme-Office"', f'    psk="{v}"', "    key_mgmt=WPA-PSK", "}"]]), [v]
    if choice == 24:
        v = rand(rng, ALNUM + "-_", rng.choice([32, 40]))
        return "password", rng.choice([["$ cat ~/.config/rclone/rclone.conf", "[backup]", "type = sftp", f"host = {host}", f"user = {user}", f"pass = {v}"],
                                       ["$ cat ~/.s3cfg", "[default]", f"access_key = AKIA{rand(rng, string.ascii_uppercase + '234567', 16)}", f"secret_key = {v}"],
                                       ["$ cat ~/.config/hub", "github.com:", f"- user: {user}", f"  oauth_token: {v}", "  protocol: https"]]), [v]
    if choice == 25:
        v = rand(rng, ALNUM, rng.choice([24, 32]))
        name = rng.choice(["STRIPE_SECRET", "DATABASE_PASSWORD", "SMTP_PASS", "WEBHOOK_SIGNING_KEY"])
        return "api_key", ["Environment Variables", "Key                         Value", f"{name}         {v}", "Production, Preview"], [v]
    if choice == 26:
        v = password(rng)
        return "password", [rng.choice([f"C:\\> cmdkey /add:{host} /user:{user} /pass:{v}", f"C:\\> psexec \\\\{host} -u {user} -p {v} cmd"]),
                            rng.choice(["CMDKEY: Credential added successfully.", "PsExec v2.43 - Execute processes remotely"])], [v]
    if choice == 27:
        v = password(rng).replace(",", "")
        return "password", [rng.choice([f"$ lftp -u {user},{v} sftp://{host}", f"$ sudo mount -t cifs //{host}/share /mnt/share -o username={user},password={v},vers=3.0"]),
                            rng.choice(["lftp {}@{}:~> ".format(user, host), "$ ls /mnt/share"])], [v]
    if choice == 28:
        v = password(rng)
        return "password", rng.choice([["# /etc/ipsec.secrets", f'%any {host} : PSK "{v}"'],
                                       ["config vpn ipsec phase1-interface", '    edit "to-branch"', f"        set psksecret {v}", "    next"]]), [v]
    if choice == 29:
        v = password(rng)
        return "password", ["#it-help", rng.choice([f"creds for the test tenant: {user} / {v}", f"login is {user}/{v} until friday",
                                                   f"staging admin → {user} / {v}"]), "👍 thanks"], [v]
    if choice == 30:
        v = rand(rng, ALNUM + "-_", 43)
        return "api_key", [f"https://app.acme.io/callback#access_token={v}&token_type=Bearer&expires_in=3600", "Signed in. You can close this tab."], [v]
    if choice == 31:
        v = rng.choice([rand(rng, "BCDFGHJKLMNPQRSTVWXZ", 4) + "-" + rand(rng, "BCDFGHJKLMNPQRSTVWXZ", 4), rand(rng, string.ascii_uppercase + string.digits, 9)])
        return "otp", rng.choice([["! First copy your one-time code: " + v, "Press Enter to open github.com in your browser..."],
                                  ["To sign in, use a web browser to open the page https://microsoft.com/devicelogin", f"and enter the code {v} to authenticate."]]), [v]
    if choice == 32:
        if rng.random() < 0.5:
            v = luhn_complete(rng, rng.choice(["34", "37"]), 15)
            shown = f"{v[:4]} {v[4:10]} {v[10:]}"
        else:
            v = luhn_complete(rng, "36", 14)
            shown = f"{v[:4]} {v[4:10]} {v[10:]}"
        return "card", ["Wallet", rng.choice(["American Express", "Diners Club"]), shown, f"Expires 0{rng.randint(1, 9)}/2{rng.randint(6, 9)}"], [v]
    v = rand(rng, string.digits, rng.choice([9, 10, 12]))
    return "iban", ["Direct deposit", "Routing number   021000021", f"Account number   {v}", "Account type   Checking"], [v]


def sixth_negative_case(rng):
    choice = rng.randrange(15)
    if choice == 0:
        return ["import * as Sentry from \"@sentry/browser\";", "Sentry.init({",
                f'  dsn: "https://{rand(rng, HEX, 32)}@o{rand(rng, string.digits, 6)}.ingest.sentry.io/{rand(rng, string.digits, 7)}",', "});"]
    if choice == 1:
        return rng.choice([["Sign in", f"Email   {rng.choice(['ana', 'jonas'])}@acme.io", "Password   ••••••••••   Show", "Forgot password?"],
                           ["$ ssh-add", "Enter passphrase for /home/ana/.ssh/id_ed25519:", "$ git push", "Password for 'https://ana@github.com':"]])
    if choice == 2:
        return ["$ nix-store -q --references result"] + [f"/nix/store/{rand(rng, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-{name}"
                                                         for name in ["glibc-2.39-52", "openssl-3.0.14", "zlib-1.3.1"]]
    if choice == 3:
        return ["go.sum", f"golang.org/x/crypto v0.21.0 h1:{base64.b64encode(rng.randbytes(32)).decode()}",
                f"golang.org/x/crypto v0.21.0/go.mod h1:{base64.b64encode(rng.randbytes(32)).decode()}"]
    if choice == 4:
        return ["Pinned", f"CID   bafybei{rand(rng, 'abcdefghijklmnopqrstuvwxyz234567', 52)}", f"Legacy   Qm{rand(rng, B58, 44)}", "Size 2.4 MB"]
    if choice == 5:
        return ["C:\\> whoami /user", "USER NAME      SID", f"acme\\ana       S-1-5-21-{rand(rng, string.digits, 10)}-{rand(rng, string.digits, 10)}-{rand(rng, string.digits, 9)}-1001"]
    if choice == 6:
        return ["$ sudo blkid", f'/dev/nvme0n1p1: UUID="{rand(rng, "0123456789ABCDEF", 4)}-{rand(rng, "0123456789ABCDEF", 4)}" TYPE="vfat" PARTUUID="{uuid.UUID(bytes=rng.randbytes(16))}"',
                f'/dev/nvme0n1p2: UUID="{uuid.UUID(bytes=rng.randbytes(16))}" TYPE="ext4" PARTUUID="{uuid.UUID(bytes=rng.randbytes(16))}"']
    if choice == 7:
        return ["Your trip", f"Booking reference   {rand(rng, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}", f"Flight LH {rng.randint(100, 999)} · Gate B{rng.randint(1, 40)} · Seat {rng.randint(1, 40)}C",
                f"Boarding {rng.randint(6, 22)}:{rng.randint(10, 59)}"]
    if choice == 8:
        return ["Transaction Details", f"Transaction Hash:   0x{rand(rng, HEX, 64)}", f"Block:   {rng.randint(18000000, 21000000)}", f"From:   0x{rand(rng, HEX, 40)}"]
    if choice == 9:
        return ["$ docker images", "REPOSITORY   TAG       IMAGE ID       CREATED       SIZE"] + \
            [f"{name}   {tag}   {rand(rng, HEX, 12)}   2 weeks ago   {rng.randint(20, 900)}MB" for name, tag in [("postgres", "16"), ("nginx", "1.27"), ("acme/api", "latest")]]
    if choice == 10:
        return ["https://auth.acme.io/authorize?response_type=code&client_id=acme-web", f"&code_challenge={rand(rng, ALNUM + '-_', 43)}&code_challenge_method=S256",
                f"&state={rand(rng, ALNUM, 22)}&redirect_uri=https%3A%2F%2Fapp.acme.io%2Fcallback"]
    if choice == 11:
        return ["Your password was changed", f"Your password was changed on {rng.randint(1, 28)} March 2025 at {rng.randint(8, 22)}:{rng.randint(10, 59)} from Firefox on Linux.",
                "If this wasn't you, reset your password now."]
    if choice == 12:
        return [f"https://github.com/acme/app/actions/runs/{rand(rng, string.digits, 10)}/job/{rand(rng, string.digits, 11)}",
                f"$ git describe", f"v2.{rng.randint(0, 9)}.{rng.randint(0, 9)}-{rng.randint(1, 40)}-g{rand(rng, HEX, 7)}"]
    if choice == 13:
        return ["$ hostnamectl", "  Static hostname: ana-laptop", f"       Machine ID: {rand(rng, HEX, 32)}", f"          Boot ID: {rand(rng, HEX, 32)}",
                "  Operating System: Debian GNU/Linux 12 (bookworm)"]
    return ["Rechnung", f"USt-IdNr. DE{rand(rng, string.digits, 9)}", f"Steuernummer {rng.randint(10, 99)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}",
            f"Kundennummer {rand(rng, string.digits, 8)}"]


def seventh_secret_case(rng):
    """The seventh pool (`--pool seventh`): written after the sixth pool had been through six rounds,
    before any rule was run on it, from places none of the earlier pools has: a Kubernetes `env`
    entry's `name`/`value` lines, key/value pairs in JSON and XML (Postman, NuGet), password labels
    in German, French, Spanish, Portuguese, Dutch, Polish, Swedish, Finnish, Russian and Turkish,
    Wi-Fi keys in other languages, a connection dialog's row of labels, form data in `curl -d`,
    `kubectl create secret --from-literal`, more tools' flags (`snmpwalk -A/-X`, `ipmitool -P`,
    `mosquitto_pub -P`, `xfreerdp /p:`, `wget --http-password`, `svn --password`, `gpg
    --passphrase`, `7z -p`), systemd `Environment=`, Heroku's config, `gcloud`'s access tokens,
    Mapbox, Airtable, Okta, Netlify, Render, Replicate, Perplexity, Dynatrace, Square, Facebook,
    Firebase, Dropbox, Slack app and Twitch tokens, SMS codes in more shapes, an authenticator's
    list, bank OTPs and TANs, UK and Australian account numbers, a card and CVC in a chat, a
    Markdown table, notes, `git credential fill`, Android signing configs, Rails' master key,
    k3s's node token, new URL schemes with credentials, an initial password, a secret piped
    from `echo`, PowerShell's `ConvertTo-SecureString`, ODBC's `PWD`, keys in a chat without a
    separator, `oathtool -b`, secrets in log lines. A value leaves out a public prefix."""
    user = rng.choice(["deploy", "admin", "ci", "lukas", "svc_sync", "ops", "pi"])
    host = rng.choice(["db.internal", "10.2.5.9", "nas.home.arpa", "mq.acme.io", "192.168.1.20"])
    choice = rng.randrange(34)
    if choice == 0:
        v = password(rng)
        name = rng.choice(["DB_PASSWORD", "POSTGRES_PASSWORD", "REDIS_PASS", "SMTP_PASSWORD", "API_SECRET"])
        return "password", ["    spec:", "      containers:", "      - name: api", "        env:", f"        - name: {name}",
                            rng.choice([f'          value: "{v}"', f"          value: {v}"]), "        - name: LOG_LEVEL", '          value: "info"'], [v]
    if choice == 1:
        v = rand(rng, ALNUM, rng.choice([32, 40]))
        key = rng.choice(["api_key", "apiKey", "token", "client_secret", "password"])
        return "api_key", ['  "values": [', f'    {{ "key": "baseUrl", "value": "https://api.acme.io", "enabled": true }},',
                           f'    {{ "key": "{key}", "value": "{v}", "enabled": true }}', "  ]"], [v]
    if choice == 2:
        v = password(rng)
        label, heading = rng.choice([("Kennwort:", "Zugangsdaten"), ("Passwort:", "Ihre Zugangsdaten"), ("Mot de passe :", "Vos identifiants"),
                                     ("Contraseña:", "Datos de acceso"), ("Senha:", "Dados de acesso"), ("Wachtwoord:", "Inloggegevens"),
                                     ("Hasło:", "Dane logowania"), ("Lösenord:", "Inloggningsuppgifter"), ("Salasana:", "Tunnukset"),
                                     ("Пароль:", "Данные для входа"), ("Şifre:", "Giriş bilgileri")])
        return "password", [heading, f"{rng.choice(['Benutzer', 'Utilisateur', 'Usuario', 'Usuário', 'Gebruiker', 'Login', 'Användare', 'Käyttäjä', 'Логин', 'Kullanıcı'])}: {user}",
                            f"{label} {v}", ""], [v]
    if choice == 3:
        v = password(rng)
        label = rng.choice(["WLAN-Schlüssel:", "WLAN-Passwort", "Clé de sécurité :", "Clé WPA", "Clave WiFi:", "Contraseña de la red", "Senha do Wi-Fi:",
                            "Netzwerkschlüssel", "Chiave di rete:"])
        return "password", [f"SSID: {rng.choice(['FRITZ!Box 7590 XY', 'Livebox-4F2A', 'MOVISTAR_9C31', 'Vodafone-A1B2'])}", f"{label} {v}"], [v]
    if choice == 4:
        v = password(rng)
        return "password", [f"Host: sftp://{host}   Username: {user}   Password: {v}   Port: 22   [Quickconnect]",
                            "Status: Connected to " + host, "Status: Directory listing successful"], [v]
    if choice == 5:
        v = password(rng).replace("&", "").replace("'", "")
        return "password", [rng.choice([f"$ curl -X POST https://{host}/login -d 'username={user}&password={v}'",
                                        f"$ curl https://{host}/api/session --data-urlencode \"password={v}\" --data-urlencode \"user={user}\"",
                                        f"$ curl -H 'Content-Type: application/json' -d '{{\"user\":\"{user}\",\"pass\":\"{v}\"}}' https://{host}/auth"]),
                            '{"ok":true}'], [v]
    if choice == 6:
        v = password(rng)
        return "password", [f"$ kubectl create secret generic {rng.choice(['db-creds', 'smtp', 'api'])} --from-literal={rng.choice(['password', 'api-key', 'DB_PASS', 'token'])}={v}",
                            "secret/db-creds created"], [v]
    if choice == 7:
        v = password(rng)
        line = rng.choice([f"$ snmpwalk -v3 -u {user} -l authPriv -a SHA -A {v} -x AES -X {v} {host}",
                           f"$ ipmitool -I lanplus -H {host} -U ADMIN -P {v} chassis status",
                           f"$ mosquitto_pub -h {host} -u {user} -P {v} -t home/door -m open",
                           f"$ xfreerdp /v:{host} /u:{user} /p:{v} /cert:ignore",
                           f"$ wget --http-user={user} --http-password={v} https://{host}/backup.tar",
                           f"$ svn checkout https://{host}/repo --username {user} --password {v}",
                           f"$ gpg --batch --passphrase '{v}' -d backup.tar.gpg > backup.tar",
                           f"$ 7z x backup.7z -p{v}"])
        return "password", [line, rng.choice(["Connected.", "Everything is Ok", "Chassis Power is on", "gpg: AES256.CFB encrypted data"])], [v]
    if choice == 8:
        v = rand(rng, ALNUM, rng.choice([32, 40]))
        name = rng.choice(["API_TOKEN", "GITHUB_TOKEN", "DB_PASSWORD", "SECRET_KEY", "SLACK_WEBHOOK_SECRET"])
        return "api_key", [f"$ systemctl cat {rng.choice(['backup', 'acme-api', 'runner'])}.service", "[Service]",
                           rng.choice([f'Environment="{name}={v}"', f"Environment={name}={v}"]), "ExecStart=/usr/local/bin/acme-api"], [v]
    if choice == 9:
        pw = password(rng).replace("@", "").replace(":", "")
        skb = rand(rng, HEX, 128)
        return "password", ["$ heroku config -a acme-api", "=== acme-api Config Vars", f"DATABASE_URL:     postgres://{user}:{pw}@ec2-3-4-5-6.compute-1.amazonaws.com:5432/d8k",
                            f"SECRET_KEY_BASE:  {skb}", "RAILS_ENV:        production"], [pw, skb]
    if choice == 10:
        v = "a0" + rand(rng, ALNUM + "-_", 160)
        return "api_key", ["$ gcloud auth print-access-token", f"ya29.{v}", "$ "], [v]
    if choice == 11:
        prefix, v = rng.choice([("sk.eyJ1Ijoi", rand(rng, ALNUM, 60) + "." + rand(rng, ALNUM + "-_", 22)),
                                ("pat", rand(rng, ALNUM, 14) + "." + rand(rng, HEX, 64)),
                                ("SSWS 00", rand(rng, ALNUM + "-_", 40)),
                                ("nfp_", rand(rng, ALNUM, 36)), ("rnd_", rand(rng, ALNUM, 32)), ("r8_", rand(rng, ALNUM, 37)),
                                ("pplx-", rand(rng, ALNUM, 48)), ("dt0c01.", rand(rng, string.ascii_uppercase + string.digits, 24) + "." + rand(rng, string.ascii_uppercase + string.digits, 64))])
        return "api_key", [rng.choice(["New token", "Personal access token", "API token generated", "Token created"]),
                           rng.choice([f"{prefix}{v}", f"Token: {prefix}{v}"]), rng.choice(["Copy", "You won't see it again."])], [v]
    if choice == 12:
        prefix, v = rng.choice([("EAAA", rand(rng, ALNUM + "-_", 60)), ("sq0csp-", rand(rng, ALNUM + "-_", 43)),
                                ("EAAG", rand(rng, ALNUM, 150)), ("AAAA", rand(rng, ALNUM + "-_", 7) + ":APA91b" + rand(rng, ALNUM + "-_", 134))])
        return "api_key", [rng.choice(["Credentials", "Access token", "Server key", "Production access token"]), f"{prefix}{v}", "Show  Copy  Replace"], [v]
    if choice == 13:
        prefix, v = rng.choice([("sl.", rand(rng, ALNUM + "-_", 136)), ("xapp-1-A0", rand(rng, string.ascii_uppercase + string.digits, 9) + "-" + rand(rng, string.digits, 13) + "-" + rand(rng, HEX, 64)),
                                ("PASS oauth:", rand(rng, string.ascii_lowercase + string.digits, 30)), ("1/", rand(rng, string.digits, 16) + ":" + rand(rng, HEX, 32)),
                                ("FASTLY_API_TOKEN=", rand(rng, ALNUM + "-_", 32))])
        return "api_key", [rng.choice(["Generated access token", "App-Level Token", "bot.cfg", "Asana personal access token", ".env"]), f"{prefix}{v}"], [v]
    if choice == 14:
        v = rand(rng, string.digits, rng.choice([5, 6]))
        line = rng.choice([f"G-{v} is your Google verification code.", f"Telegram code: {v}", f"Your WhatsApp code: {v[:3]}-{v[3:]}" if len(v) == 6 else f"Telegram code {v}",
                           f"[Alipay] {v}", f"<#> {v} is your code. FA+9qCX9VSu", f"Use {v} to log in. Don't share it.",
                           f"{v} — your one-time passcode for Chase. Never share it."])
        shown = re.search(r"\d{3}-\d{3}|\d{5,6}", line).group(0)
        return "otp", ["Messages", line, "now"], [shown]
    if choice == 15:
        v = rand(rng, string.digits, 6)
        shown = f"{v[:3]} {v[3:]}"
        return "otp", [rng.choice(["Google Authenticator", "Authy", "Microsoft Authenticator"]), rng.choice(["GitHub", "AWS", "Dropbox", "Proton"]),
                       f"{user}@acme.io", shown, f"{rng.randint(3, 29)}s"], [v]
    if choice == 16:
        v = rand(rng, string.digits, rng.choice([6, 8]))
        line = rng.choice([f"OTP for txn of INR {rng.randint(100, 9999)}.00 at AMAZON on card XX{rand(rng, string.digits, 4)} is {v}. Valid for 10 mins. Do not share.",
                           f"Ihre mTAN für die Überweisung über {rng.randint(10, 999)},00 EUR lautet {v}",
                           f"SMS-TAN: {v}", f"Your one time password (OTP) is {v}"])
        return "otp", ["Bank", line], [v]
    if choice == 17:
        v = rand(rng, string.digits, 8)
        return "iban", rng.choice([["Pay by bank transfer", f"Sort code   {rand(rng, string.digits, 2)}-{rand(rng, string.digits, 2)}-{rand(rng, string.digits, 2)}", f"Account number   {v}"],
                                   ["Bank details", f"BSB: {rand(rng, string.digits, 3)}-{rand(rng, string.digits, 3)}", f"Account: {v}"]]), [v]
    if choice == 18:
        v = luhn_complete(rng, rng.choice(["4", "51", "55"]), 16)
        shown = " ".join(v[i:i + 4] for i in range(0, 16, 4))
        return "card", ["#household", f"use my card {shown} exp 0{rng.randint(1, 9)}/2{rng.randint(7, 9)} cvc {rand(rng, string.digits, 3)}", "got it"], [v]
    if choice == 19:
        v = password(rng).replace("|", "")
        return "password", ["| Site | User | Password |", "|------|------|----------|", f"| VPN | {user} | {v} |", "| Wiki | ana | (SSO) |"], [v]
    if choice == 20:
        v = password(rng)
        return "password", ["Notes", rng.choice([f"wifi (upstairs): {v}", f"nas admin pw {v}", f"router login admin / {v}", f"pw for the NAS is {v}"]),
                            "buy milk"], [v]
    if choice == 21:
        v = rand(rng, ALNUM, 36)
        return "api_key", ["$ printf 'protocol=https\\nhost=github.com\\n' | git credential fill", "protocol=https", "host=github.com",
                           f"username={user}", f"password=gho_{v}"], [v]
    if choice == 22:
        v = password(rng).replace('"', "")
        return "password", rng.choice([["<packageSourceCredentials>", "  <acme>", f'    <add key="Username" value="{user}" />',
                                        f'    <add key="ClearTextPassword" value="{v}" />', "  </acme>"],
                                       [f"$ dotnet nuget add source https://{host}/nuget -n acme -u {user} -p {v} --store-password-in-clear-text",
                                        'Package source with Name: acme added successfully.']]), [v]
    if choice == 23:
        v = password(rng).replace("'", "").replace('"', "")
        return "password", ["signingConfigs {", "    release {", '        storeFile file("release.jks")',
                            rng.choice([f"        storePassword '{v}'", f'        keyPassword "{v}"', f'        storePassword = "{v}"']), '        keyAlias "upload"'], [v]
    if choice == 24:
        if rng.random() < 0.5:
            v = rand(rng, HEX, 32)
            return "api_key", ["$ cat config/master.key", v, "$ "], [v]
        v = rand(rng, HEX, 64) + "::server:" + rand(rng, HEX, 32)
        return "api_key", ["$ sudo cat /var/lib/rancher/k3s/server/node-token", f"K10{v}"], [v]
    if choice == 25:
        v = password(rng).replace("@", "").replace(":", "").replace("/", "")
        return "password", [rng.choice([f'$ mongosh "mongodb+srv://{user}:{v}@cluster0.ab1cd.mongodb.net/"', f"BROKER_URL=amqp://{user}:{v}@{host}:5672/",
                                        f"$ redis-cli -u redis://default:{v}@{host}:6379", f"sqlalchemy.url = mysql+pymysql://{user}:{v}@{host}/acme",
                                        f"MAILER_DSN=smtp://{user}:{v}@smtp.mailgun.org:587"])], [v]
    if choice == 26:
        v = password(rng)
        return "password", ["Welcome aboard!", "Your login details:", f"Username: {user}",
                            rng.choice([f"Initial password {v} (change on first login)", f"Temporary password {v}", f"One-time password {v}"])], [v]
    if choice == 27:
        v = password(rng).replace("'", "")
        return "password", [rng.choice([f"$ printf '{v}' | docker secret create db_pw -", f"$ echo '{v}' | docker login -u {user} --password-stdin",
                                        f"$ echo -n '{v}' | base64", f"$ echo '{v}' | sudo -S apt update"])], [v]
    if choice == 28:
        v = password(rng).replace("'", "").replace('"', "")
        return "password", ["PS C:\\> " + rng.choice([f"$pw = ConvertTo-SecureString '{v}' -AsPlainText -Force",
                                                    f'New-LocalUser -Name {user} -Password (ConvertTo-SecureString "{v}" -AsPlainText -Force)',
                                                    f"Invoke-Sqlcmd -ServerInstance {host} -Username {user} -Password '{v}' -Query 'SELECT 1'"])], [v]
    if choice == 29:
        v = password(rng).replace(";", "")
        return "password", rng.choice([["$ cat ~/.odbc.ini", "[acme]", "Driver=PostgreSQL Unicode", f"Servername={host}", f"UID={user}", f"PWD={v}"],
                                       [f"Driver={{ODBC Driver 18 for SQL Server}};Server={host};Uid={user};Pwd={v};Encrypt=yes"]]), [v]
    if choice == 30:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["#backend", rng.choice([f"staging api key is {v}", f"token for the bot → {v}", f"use this key for staging {v}", f"secret = {v} (rotate monday)"]),
                           "ty!"], [v]
    if choice == 31:
        v = rand(rng, B32, 32)
        return "otp", [f"$ oathtool --totp -b {v}", rand(rng, string.digits, 6)], [v]
    if choice == 32:
        v = rand(rng, ALNUM, 32)
        return "api_key", [rng.choice([f"2025-03-04 10:22:31 DEBUG Connecting with password={v}",
                                       f"2025-03-04 10:22:31 INFO  auth header: Bearer {v}",
                                       f"2025-03-04 10:22:31 WARN  request failed: {{'url': '/v1/items', 'api_key': '{v}'}}"]),
                           "2025-03-04 10:22:32 INFO  retrying in 5s"], [v]
    v = password(rng)
    return "password", rng.choice([["# secrets.yaml (Home Assistant)", f"mqtt_password: {v}", "latitude: 52.52"],
                                   [f"$ mysql -h {host} -u {user} --password={v} acme", "mysql>"]]), [v]


def seventh_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["      - uses: docker/login-action@v3", "        with:", "          username: ${{ vars.DOCKERHUB_USER }}",
                f"          password: ${{{{ secrets.{rng.choice(['DOCKERHUB_TOKEN', 'REGISTRY_PASSWORD'])} }}}}"]
    if choice == 1:
        return ["$ aws configure list", "      Name                    Value             Type    Location",
                f"access_key     ****************{rand(rng, string.ascii_uppercase + string.digits, 4)} shared-credentials-file",
                f"secret_key     ****************{rand(rng, ALNUM, 4)} shared-credentials-file"]
    if choice == 2:
        return ["  # aws_db_instance.main will be created", "  + resource \"aws_db_instance\" \"main\" {",
                "      + password = (sensitive value)", f"      + port     = {rng.choice([5432, 3306])}", "Outputs: db_password = <sensitive>"]
    if choice == 3:
        return ["        env:", "        - name: DB_PASSWORD", "          valueFrom:", "            secretKeyRef:", "              name: db-creds", "              key: password"]
    if choice == 4:
        return rng.choice([['password = os.environ["DB_PASSWORD"]', 'token = os.getenv("GITHUB_TOKEN")'],
                           ['token := os.Getenv("GITHUB_TOKEN")', "if token == \"\" {"],
                           ["const apiKey = process.env.STRIPE_SECRET_KEY;", "const password = await prompt('Password: ');"]])
    if choice == 5:
        return ["Create your account", "Password: at least 12 characters, including a number and a symbol", "Passphrase strength: strong",
                "Your password must not contain your username"]
    if choice == 6:
        return ["$ ip a show wlp2s0", f"    link/ether {':'.join(rand(rng, HEX, 2) for _ in range(6))} brd ff:ff:ff:ff:ff:ff",
                f"    inet 192.168.{rng.randint(0, 9)}.{rng.randint(2, 250)}/24 brd 192.168.1.255 scope global dynamic",
                f"    inet6 fe80::{rand(rng, HEX, 4)}:{rand(rng, HEX, 4)}:{rand(rng, HEX, 4)}:{rand(rng, HEX, 4)}/64 scope link"]
    if choice == 7:
        return ["assets by status 612 KiB [emitted]", f"  asset main.{rand(rng, HEX, 20)}.js 245 KiB [emitted] [immutable]",
                f"  asset vendor.{rand(rng, HEX, 8)}.css 12 KiB [emitted]", f"webpack 5.91.0 compiled successfully in {rng.randint(900, 9000)} ms"]
    if choice == 8:
        return ["$ npm audit", f"semver  <7.5.2", "Severity: high",
                f"semver vulnerable to Regular Expression Denial of Service - https://github.com/advisories/GHSA-{rand(rng, '23456789cfghjmpqrvwx', 4)}-{rand(rng, '23456789cfghjmpqrvwx', 4)}-{rand(rng, '23456789cfghjmpqrvwx', 4)}",
                f"CVE-2024-{rng.randint(10000, 49999)}"]
    if choice == 9:
        return ["Exception in thread \"main\" java.lang.NullPointerException", f"    at com.acme.api.OrderService$$Lambda${rng.randint(100, 9999)}/0x0000000800{rand(rng, HEX, 6)}.apply(Unknown Source)",
                f"    at com.acme.api.OrderService.load(OrderService.java:{rng.randint(20, 400)})", f"    at com.acme.api.Order@{rand(rng, HEX, 8)}"]
    if choice == 10:
        return ["Shared links", f"https://www.youtube.com/watch?v={rand(rng, ALNUM + '-_', 11)}&t={rng.randint(5, 300)}s",
                f"https://open.spotify.com/track/{rand(rng, ALNUM, 22)}?si={rand(rng, HEX, 16)}"]
    if choice == 11:
        return ["$ cat group_vars/all/vault.yml", "$ANSIBLE_VAULT;1.1;AES256"] + [rand(rng, "0123456789", 2) + rand(rng, HEX, 78) for _ in range(3)]
    if choice == 12:
        return ["$ cat assets/hero.png", "version https://git-lfs.github.com/spec/v1", f"oid sha256:{rand(rng, HEX, 64)}", f"size {rng.randint(10000, 9000000)}"]
    if choice == 13:
        return ["Join Zoom Meeting", f"Meeting ID: {rng.randint(100, 999)} {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}",
                f"One tap mobile +16465588656,,{rand(rng, string.digits, 11)}# US (New York)"]
    if choice == 14:
        return ["About This Mac", f"Serial Number: C02{rand(rng, string.ascii_uppercase + string.digits, 9)}", f"Part No. M{rand(rng, string.ascii_uppercase + string.digits, 4)}LL/A",
                f"UPC {rand(rng, string.digits, 12)}"]
    return ["#team", rng.choice(["did you reset your password? the token expired again", "I'll put the new API key in 1Password, not here",
                                 "the staging password changed this morning, ask Ana"]), "ok 👍"]


def eighth_secret_case(rng):
    """The eighth pool (`--pool eighth`): written after the seventh pool had been through six rounds,
    before any rule was run on it, from places none of the earlier pools has: Composer's `auth.json`,
    Cargo's and RubyGems' credentials, `~/.my.cnf`, `wp-config.php`'s defines, Oracle and other
    database clients (`sqlplus user/pass@db`, `db2 … using`, `tsql -P`, `influx -password`,
    `clickhouse-client --password`), Jenkins' initial admin password, a hosting dashboard's row of
    environment variables, newer providers (HubSpot, Pinecone, Supabase, Sentry, LangSmith, xAI,
    Docker Hub, NuGet, Grafana Cloud), a browser's cookie table, `env | grep` and `docker inspect`
    output, `terraform output -json`, a password manager's detail pane and CLIs (`bw get`,
    `secret-tool lookup`, `gopass show -o`, `security … -w`), labels above their values in a form,
    backup codes in columns, an extended private key, a setup key in small letters, codes in Czech,
    Danish, Finnish, Hungarian, Romanian, Greek and Norwegian, password labels in more languages,
    `--value` flags of cloud CLIs, request headers in a table, keys in query strings (`appid=`,
    `apikey=`, `subscription-key=`), ESPHome's YAML, camera and file-share URLs, Discord and Teams
    webhooks, a password in a chat sentence after "is", a backup tool's passphrase before its command."""
    user = rng.choice(["deploy", "admin", "ci", "noor", "svc_ingest", "ops", "root"])
    host = rng.choice(["db.internal", "10.9.1.14", "files.acme.io", "srv-02.lan", "192.168.0.10"])
    choice = rng.randrange(34)
    if choice == 0:
        v = password(rng).replace('"', "")
        return "password", ["$ cat ~/.config/composer/auth.json", "{", '    "http-basic": {', f'        "repo.{host}": {{',
                            f'            "username": "{user}",', f'            "password": "{v}"', "        }", "    }", "}"], [v]
    if choice == 1:
        if rng.random() < 0.5:
            v = rand(rng, ALNUM, 32)
            return "api_key", ["$ cat ~/.cargo/credentials.toml", "[registry]", f'token = "cio{v}"'], [v]
        v = rand(rng, HEX, 48)
        return "api_key", ["$ cat ~/.gem/credentials", "---", f":rubygems_api_key: rubygems_{v}"], [v]
    if choice == 2:
        v = password(rng).replace('"', "")
        return "password", ["$ cat ~/.my.cnf", "[client]", f"user={user}", rng.choice([f'password="{v}"', f"password={v}"]), f"host={host}"], [v]
    if choice == 3:
        v = password(rng).replace("'", "")
        return "password", ["/** Database username */", f"define( 'DB_USER', '{user}' );", "/** Database password */",
                            f"define( 'DB_PASSWORD', '{v}' );", f"define( 'DB_HOST', 'localhost' );"], [v]
    if choice == 4:
        v = password(rng).replace("@", "").replace("/", "").replace("'", "")
        line = rng.choice([f"$ sqlplus {user}/{v}@{host}:1521/ORCLPDB1", f"$ db2 connect to SAMPLE user {user} using {v}",
                           f"$ tsql -S {host} -U {user} -P '{v}'", f"$ influx -host {host} -username {user} -password '{v}'",
                           f"$ clickhouse-client --host {host} --user {user} --password {v}"])
        return "password", [line, rng.choice(["Connected to:", "Database Connection Information", "1>", "Connected to ClickHouse server"])], [v]
    if choice == 5:
        v = rand(rng, "0123456789abcdef", 32)
        return "password", ["$ sudo cat /var/lib/jenkins/secrets/initialAdminPassword", v, "$ "], [v]
    if choice == 6:
        name, prefix, v = rng.choice([("STRIPE_SECRET_KEY", "sk_live_", rand(rng, ALNUM, 99)), ("DATABASE_PASSWORD", "", password(rng)),
                                      ("OPENAI_API_KEY", "sk-proj-", rand(rng, ALNUM + "-_", 120)), ("SESSION_SECRET", "", rand(rng, ALNUM, 40))])
        return "api_key", ["Environment Variables", "Key                      Value                                   Environments",
                           f"{name}    {prefix}{v}    Production, Preview", "NEXT_PUBLIC_SITE_URL    https://acme.io    All"], [v]
    if choice == 7:
        prefix, v = rng.choice([("pat-na1-", str(uuid.UUID(bytes=rng.randbytes(16)))), ("pcsk_", rand(rng, ALNUM, 5) + "_" + rand(rng, ALNUM, 62)),
                                ("sbp_", rand(rng, HEX, 40)), ("sntryu_", rand(rng, HEX, 64)),
                                ("lsv2_pt_", rand(rng, HEX, 32) + "_" + rand(rng, HEX, 10)), ("xai-", rand(rng, ALNUM, 80)),
                                ("dckr_pat_", rand(rng, ALNUM + "-_", 27)), ("oy2", rand(rng, string.ascii_lowercase + string.digits, 43)),
                                ("glc_", rand(rng, ALNUM, 80) + "=")])
        return "api_key", [rng.choice(["Your new token", "Access token", "Service account token", "API key created"]),
                           rng.choice([f"{prefix}{v}", f"Key  {prefix}{v}"]), rng.choice(["Make sure to copy it now.", "Done"])], [v.rstrip("=")]
    if choice == 8:
        name, v = rng.choice([("connect.sid", "s%3A" + rand(rng, ALNUM + "-_", 32) + "." + rand(rng, ALNUM, 43)),
                              ("__Secure-next-auth.session-token", rand(rng, ALNUM + "-_", 120)),
                              ("laravel_session", rand(rng, ALNUM, 40)), ("_gh_sess", rand(rng, ALNUM + "%", 90))])
        return "api_key", ["Application  >  Cookies  >  https://app.acme.io", "Name    Value    Domain    Path    Expires",
                           f"{name}    {v}    app.acme.io    /    Session", "theme    dark    app.acme.io    /    2026-12-01"], [v]
    if choice == 9:
        name, v = rng.choice([("GH_TOKEN", "gho_" + rand(rng, ALNUM, 36)), ("CI_JOB_TOKEN", rand(rng, ALNUM + "-_", 20)),
                              ("HOMEBREW_GITHUB_API_TOKEN", "ghp_" + rand(rng, ALNUM, 36)), ("NPM_CONFIG_PASSWORD", password(rng)),
                              ("OP_SESSION_acme", rand(rng, ALNUM + "-_", 43))])
        shown = v.split("_", 1)[1] if v.startswith(("gho_", "ghp_")) else v
        return "api_key", [f"$ env | grep -i {rng.choice(['token', 'pass', 'secret'])}", f"{name}={v}", "SSH_AUTH_SOCK=/run/user/1000/ssh-agent.socket"], [shown]
    if choice == 10:
        v = password(rng).replace('"', "")
        name = rng.choice(["POSTGRES_PASSWORD", "MYSQL_ROOT_PASSWORD", "RABBITMQ_DEFAULT_PASS", "MINIO_ROOT_PASSWORD"])
        return "password", ["$ docker inspect db --format '{{json .Config.Env}}' | jq", "[", f'  "{name}={v}",',
                            '  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",', '  "LANG=C.UTF-8"', "]"], [v]
    if choice == 11:
        v = password(rng).replace('"', "")
        return "password", ["$ terraform output -json", "{", '  "db_password": {', '    "sensitive": true,', '    "type": "string",',
                            f'    "value": "{v}"', "  },", '  "db_host": {', '    "sensitive": false,'], [v]
    if choice == 12:
        v = password(rng)
        return "password", [rng.choice(["KeePassXC", "Bitwarden", "1Password"]), f"{rng.choice(['Router', 'Synology NAS', 'Staging DB'])}",
                            "Username", user, "Password", v, "Website", f"https://{host}"], [v]
    if choice == 13:
        v = password(rng)
        return "password", [rng.choice([f"$ bw get password {rng.choice(['github', 'nas', 'vpn'])}", "$ secret-tool lookup service nas user admin",
                                        f"$ gopass show -o infra/{rng.choice(['db', 'nas'])}", f"$ security find-generic-password -a {user} -s nas -w"]), v, "$ "], [v]
    if choice == 14:
        v = password(rng)
        return "password", ["FTP account created", "Host", host, "Username", f"{user}@acme.io", "Password", v, "Port", "21"], [v]
    if choice == 15:
        codes = [f"{rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}" for _ in range(6)]
        return "otp", ["Backup codes", "Keep them somewhere safe. Each code can be used once."] + \
            [f"{i + 1}. {codes[i]}      {i + 4}. {codes[i + 3]}" for i in range(3)], [c.replace(" ", "") for c in codes]
    if choice == 16:
        v = rand(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 103)
        return "seed", ["Export account private key", f"xprv9s21{v}", "Never disclose this key."], [v]
    if choice == 17:
        v = rand(rng, B32.lower(), 32)
        shown = " ".join(v[i:i + 4] for i in range(0, 32, 4))
        return "otp", ["Can't scan the QR code?", "Enter this key in your authenticator app:", shown, "Time based: Yes"], [v]
    if choice == 18:
        v = rand(rng, string.digits, 6)
        line = rng.choice([f"Váš ověřovací kód je {v}", f"Din bekræftelseskode er {v}", f"Vahvistuskoodisi on {v}",
                           f"Az ellenőrző kódod: {v}", f"Codul tău de verificare este {v}", f"Ο κωδικός επαλήθευσης είναι {v}",
                           f"Engangskoden din er {v}"])
        return "otp", ["Messages", line, "now"], [v]
    if choice == 19:
        v = password(rng)
        label = rng.choice(["Adgangskode:", "Passord:", "Heslo:", "Jelszó:", "Parolă:", "Kata sandi:", "Mật khẩu:", "Contrasenya:",
                            "Lozinka:", "Geslo:", "Parool:", "Slaptažodis:"])
        return "password", [rng.choice(["Login", "Konto", "Účet", "Fiók", "Cont", "Akun"]), f"{rng.choice(['User', 'Bruger', 'Uživatel', 'Felhasználó', 'Pengguna'])}: {user}",
                            f"{label} {v}"], [v]
    if choice == 20:
        v = password(rng).replace("'", "")
        return "password", [rng.choice([f"$ aws ssm put-parameter --name /prod/db/password --type SecureString --value '{v}'",
                                        f"$ az keyvault secret set --vault-name acme-kv --name db-password --value '{v}'",
                                        f"$ fly secrets set DATABASE_PASSWORD='{v}' -a acme-api",
                                        f"$ doppler secrets set DB_PASSWORD '{v}'"]), rng.choice(['{ "Version": 1, "Tier": "Standard" }', "Secrets are staged", "ok"])], [v]
    if choice == 21:
        name, v = rng.choice([("Ocp-Apim-Subscription-Key", rand(rng, HEX, 32)), ("X-Shopify-Access-Token", "shpat_" + rand(rng, HEX, 32)),
                              ("PRIVATE-TOKEN", "glpat-" + rand(rng, ALNUM + "-_", 20)), ("X-Vault-Token", "hvs." + rand(rng, ALNUM, 24)),
                              ("apikey", rand(rng, ALNUM, 40))])
        shown = v.split("_", 1)[1] if v.startswith("shpat_") else v.split("-", 1)[1] if v.startswith("glpat-") else v[4:] if v.startswith("hvs.") else v
        return "api_key", ["Request Headers", "Accept    application/json", f"{name}    {v}", "User-Agent    PostmanRuntime/7.39.0"], [shown]
    if choice == 22:
        key, v = rng.choice([("appid", rand(rng, HEX, 32)), ("apikey", rand(rng, ALNUM, 32)), ("subscription-key", rand(rng, HEX, 32)),
                             ("api_token", rand(rng, ALNUM, 40))])
        return "api_key", ["GET " + rng.choice([f"https://api.openweathermap.org/data/2.5/weather?q=Berlin&{key}={v}",
                                                f"https://api.acme.io/v2/items?{key}={v}&page=2"]), "200 OK  312 ms"], [v]
    if choice == 23:
        k = base64.b64encode(rng.randbytes(32)).decode()
        pw = password(rng).replace('"', "")
        return "api_key", ["api:", "  encryption:", f'    key: "{k}"', "ota:", "  - platform: esphome", f'    password: "{pw}"'], [k.rstrip("="), pw]
    if choice == 24:
        v = password(rng).replace("@", "").replace(":", "").replace("/", "")
        return "password", [rng.choice([f"rtsp://admin:{v}@{host}:554/Streaming/Channels/101", f"smb://{user}:{v}@{host}/share",
                                        f"vnc://:{v}@{host}:5900", f"webdav://{user}:{v}@{host}/remote.php/dav"])], [v]
    if choice == 25:
        v = rand(rng, ALNUM + "-_", 68)
        if rng.random() < 0.5:
            return "api_key", ["Webhook URL", f"https://discord.com/api/webhooks/{rand(rng, string.digits, 19)}/{v}"], [v]
        v = rand(rng, HEX, 32)
        return "api_key", ["Webhook URL", f"https://acme.webhook.office.com/webhookb2/{uuid.UUID(bytes=rng.randbytes(16))}@{uuid.UUID(bytes=rng.randbytes(16))}/IncomingWebhook/{v}/{uuid.UUID(bytes=rng.randbytes(16))}"], [v]
    if choice == 26:
        v = password(rng)
        return "password", ["#it-help", rng.choice([f"the guest wifi password is {v}", f"new printer admin password is {v} fyi",
                                                     f"ok so the vpn pass is {v}", f"password for the shared mailbox is now {v}"]), "thanks!"], [v]
    if choice == 27:
        v = rand(rng, ALNUM, 43)
        return "api_key", ["$ cat .npmrc", f"@acme:registry=https://npm.pkg.github.com", f"//npm.pkg.github.com/:_authToken=ghp_{v[:36]}"], [v[:36]]
    if choice == 28:
        v = password(rng)
        return "password", [f"$ sshpass -p '{v}' ssh {user}@{host}" if rng.random() < 0.3 else f"$ net user {user} {v} /add",
                            rng.choice(["The command completed successfully.", "Welcome to Ubuntu 24.04 LTS"])], [v]
    if choice == 29:
        v = password(rng).replace("'", "").replace('"', "")
        return "password", ["PS> " + rng.choice([f"$cred = New-Object PSCredential('{user}', (ConvertTo-SecureString '{v}' -AsPlainText -Force))",
                                                 f"Connect-VIServer -Server {host} -User {user} -Password '{v}'",
                                                 f"Enter-PSSession -ComputerName {host} -Credential {user} # pw {v}"])], [v]
    if choice == 30:
        v = password(rng)
        return "password", ["Reset complete", f"Your new password: {v}" if rng.random() < 0.5 else f"New password — {v}", "Sign in"], [v]
    if choice == 31:
        v = rand(rng, string.digits, 4)
        return "otp", ["Messages", rng.choice([f"Your PIN for the locker is {v}", f"Parcel locker code: {v}", f"Gate code {v}#"]), "now"], [v]
    if choice == 32:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ cat ~/.config/gh/hosts.yml", "github.com:", f"    oauth_token: gho_{v[:36]}", f"    user: {user}", "    git_protocol: https"], [v[:36]]
    v = password(rng).replace("'", "")
    return "password", [rng.choice([f"$ RESTIC_PASSWORD='{v}' restic -r sftp:{user}@{host}:/srv/restic backup ~/",
                                    f"$ BORG_PASSPHRASE='{v}' borg create ::{{now}} ~/Documents"]), "processed 1,204 files"], [v]


def eighth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["$ sudo wg show", "interface: wg0", f"  public key: {base64.b64encode(rng.randbytes(32)).decode()}",
                "  private key: (hidden)", f"  listening port: {rng.randint(40000, 60000)}"]
    if choice == 1:
        return ["$ kubectl describe secret db-creds", "Type:  Opaque", "Data", "====", f"password:  {rng.randint(8, 32)} bytes",
                f"username:  {rng.randint(4, 10)} bytes"]
    if choice == 2:
        return ["$ docker secret ls", "ID                          NAME      DRIVER    CREATED",
                f"{rand(rng, string.ascii_lowercase + string.digits, 25)}   db_pw               {rng.randint(2, 9)} days ago"]
    if choice == 3:
        return ["$ gh auth status", "github.com", f"  ✓ Logged in to github.com account {rng.choice(['noor', 'ops-bot'])} (keyring)",
                "  - Token: gho_************************************", "  - Token scopes: 'gist', 'read:org', 'repo'"]
    if choice == 4:
        return ["API keys", f"Secret key    sk_live_...{rand(rng, ALNUM, 4)}    Created Mar 3", f"Publishable key    pk_live_{rand(rng, ALNUM, 24)}"]
    if choice == 5:
        return [f'<script src="/app.js" integrity="sha384-{base64.b64encode(rng.randbytes(48)).decode()}" crossorigin="anonymous"></script>']
    if choice == 6:
        return ["$ kubectl get pods", "NAME                          READY   STATUS    RESTARTS   AGE",
                f"api-{rand(rng, 'bcdfghjklmnpqrstvwxz2456789', 10)}-{rand(rng, 'bcdfghjklmnpqrstvwxz2456789', 5)}   1/1     Running   0          3d",
                f"worker-{rand(rng, 'bcdfghjklmnpqrstvwxz2456789', 9)}-{rand(rng, 'bcdfghjklmnpqrstvwxz2456789', 5)}   1/1     Running   2          3d"]
    if choice == 7:
        return ["$ docker images --digests", f"nginx   1.27   sha256:{rand(rng, HEX, 64)}   {rand(rng, HEX, 12)}   2 weeks ago   188MB"]
    if choice == 8:
        return ["$ ssh-keygen -lf ~/.ssh/id_ed25519.pub", f"256 SHA256:{base64.b64encode(rng.randbytes(32)).decode().rstrip('=')} {rng.choice(['noor', 'ops'])}@laptop (ED25519)"]
    if choice == 9:
        fp = rand(rng, "0123456789ABCDEF", 40)
        return ["$ gpg --list-keys", "pub   ed25519 2024-05-01 [SC]", "      " + " ".join(fp[i:i + 4] for i in range(0, 40, 4)),
                "uid           [ultimate] Noor Haddad <noor@acme.io>"]
    if choice == 10:
        return ["$ aws sts get-caller-identity", f'    "UserId": "AROA{rand(rng, string.ascii_uppercase + string.digits, 17)}:noor",',
                f'    "Account": "{rand(rng, string.digits, 12)}",', f'    "Arn": "arn:aws:sts::{rand(rng, string.digits, 12)}:assumed-role/Dev/noor"']
    if choice == 11:
        return ["$ cat .env.example", "STRIPE_SECRET_KEY=sk_test_your_key_here", "DATABASE_PASSWORD=changeme", "JWT_SECRET=<generate with openssl rand -hex 32>"]
    if choice == 12:
        return [f'background: url("data:image/png;base64,iVBORw0KGgo{base64.b64encode(rng.randbytes(60)).decode()}");']
    if choice == 13:
        return ["Wallet", "Receive bitcoin", f"bc1q{rand(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}", "Copy address"]
    if choice == 14:
        return ["Sign in", "Email    noor@acme.io", "Password    ••••••••••", "[x] Remember me", "Forgot your password?"]
    return ["Cargo.lock", '[[package]]', 'name = "serde"', 'version = "1.0.210"', f'checksum = "{rand(rng, HEX, 64)}"']


def ninth_secret_case(rng):
    """The ninth pool (`--pool ninth`): written after the eighth pool had been through four rounds,
    before any rule was run on it, from places none of the earlier pools has: a notebook server's
    address with its token, `.pypirc`, `wget`'s, Helm's, `crane`'s, `skopeo`'s, `twine`'s,
    `poetry config`'s and `composer config`'s credentials, `vault login`, `keytool`'s store and key
    passwords, PuTTY's `plink -pw`, `bcp -P`, `ncftp -p`, an inline `RSYNC_PASSWORD=`, `hg clone`
    with a password in its address, a dashboard that shows a token once (Cloudflare, Fly.io,
    Vercel, Netlify, Render), device sign-in codes (`WDJB-MJHT`), Asterisk's `secret=`, Grafana's
    and Prometheus's config files, a Java `.properties` line with a dotted name, a key in a
    Markdown code block, a Go or Rust constant, a password said in a calendar invite, a printed
    Wi-Fi card (`Network` / `Key`), a one-time code in a push notification's title, a recovery key
    in groups of six, a PIN in a bank letter, a token in a `curl -H 'X-Auth-Token: …'` line."""
    user = rng.choice(["deploy", "admin", "ci", "noor", "svc_backup", "ops", "build"])
    host = rng.choice(["repo.internal", "10.20.0.5", "ftp.acme.io", "nas-01.lan", "192.168.1.20"])
    choice = rng.randrange(32)
    if choice == 0:
        v = rand(rng, HEX, 48)
        return "api_key", ["$ jupyter server list", "Currently running servers:",
                           f"http://localhost:8888/?token={v} :: /home/{user}/notebooks"], [v]
    if choice == 1:
        v = "pypi-AgEIcHlwaS5vcmc" + rand(rng, ALNUM + "-_", 140)
        return "api_key", ["$ cat ~/.pypirc", "[distutils]", "index-servers = pypi", "", "[pypi]", "username = __token__",
                           f"password = {v}"], [v[8:]]
    if choice == 2:
        v = password(rng).replace("'", "").replace('"', "")
        line = rng.choice([f"$ wget --user={user} --password='{v}' https://{host}/backups/db.tar.gz",
                           f"$ helm repo add acme https://{host}/charts --username {user} --password '{v}'",
                           f"$ crane auth login {host} -u {user} -p '{v}'",
                           f"$ skopeo copy --src-creds {user}:'{v}' docker://{host}/app:1.4 oci:app",
                           f"$ bcp dbo.orders out orders.dat -S {host} -U {user} -P '{v}' -c",
                           f"$ ncftp -u {user} -p '{v}' {host}",
                           f"$ plink -ssh {user}@{host} -pw '{v}'"])
        return "password", [line, rng.choice(["Saving to: 'db.tar.gz'", '"acme" has been added to your repositories', "Login succeeded",
                                               "Copying blob 4f4fb700ef54 done", "1000 rows copied.", "NcFTP 3.2.6", "Using username \"deploy\"."])], [v]
    if choice == 3:
        v = "pypi-AgEIcHlwaS5vcmc" + rand(rng, ALNUM + "-_", 120)
        return "api_key", [f"$ twine upload -u __token__ -p {v} dist/*", "Uploading distributions to https://upload.pypi.org/legacy/"], [v[8:]]
    if choice == 4:
        v = password(rng).replace("'", "").replace('"', "")
        return "password", [rng.choice([f"$ poetry config http-basic.acme {user} '{v}'", f"$ composer config http-basic.{host} {user} '{v}'"]), "$ "], [v]
    if choice == 5:
        v = "hvs." + rand(rng, ALNUM, 24)
        return "api_key", [rng.choice([f"$ vault login {v}", f"$ VAULT_TOKEN={v} vault kv get secret/app"]),
                           "Success! You are now authenticated."], [v[4:]]
    if choice == 6:
        a, b = password(rng).replace("'", ""), password(rng).replace("'", "")
        return "password", [f"$ keytool -importkeystore -srckeystore app.p12 -srcstoretype PKCS12 -destkeystore app.jks",
                            f"    -srcstorepass '{a}' -deststorepass '{b}'", "Import command completed: 1 entries successfully imported"], [a, b]
    if choice == 7:
        v = password(rng).replace("'", "")
        return "password", [f"$ RSYNC_PASSWORD='{v}' rsync -av ./site/ rsync://{user}@{host}/www", "sending incremental file list"], [v]
    if choice == 8:
        v = password(rng).replace("@", "").replace(":", "").replace("/", "")
        return "password", [f"$ hg clone https://{user}:{v}@{host}/hg/tools", "requesting all changes"], [v]
    if choice == 9:
        provider, v = rng.choice([("Cloudflare", rand(rng, ALNUM + "-_", 40)), ("Vercel", rand(rng, ALNUM, 24)),
                                  ("Netlify", "nfp_" + rand(rng, ALNUM, 36)), ("Render", "rnd_" + rand(rng, ALNUM, 28))])
        return "api_key", [f"{provider} · API Tokens", "Your token was created. Copy it now: you won't see it again.", v, "Copy    Done"], [v[4:] if v.startswith(("nfp_", "rnd_")) else v]
    if choice == 10:
        v = "FlyV1 fm2_" + rand(rng, ALNUM + "+/", 120)
        return "api_key", ["$ fly tokens create deploy -a acme-api", v], [v[10:]]
    if choice == 11:
        v = rand(rng, "BCDFGHJKLMNPQRSTVWXZ", 4) + "-" + rand(rng, "BCDFGHJKLMNPQRSTVWXZ", 4)
        return "otp", ["Device activation", rng.choice([f"First copy your one-time code: {v}", f"Enter the code {v} at github.com/login/device",
                                                       f"Go to microsoft.com/devicelogin and enter the code {v} to authenticate."])], [v]
    if choice == 12:
        v = password(rng)
        return "password", ["; /etc/asterisk/pjsip.conf", f"[{user}]", "type=auth", "auth_type=userpass", f"username={user}", f"secret={v}"], [v]
    if choice == 13:
        v = password(rng).replace(";", "").replace("#", "")
        return "password", ["$ sudo grep -A3 '^\\[security\\]' /etc/grafana/grafana.ini", "[security]", f"admin_user = {user}", f"admin_password = {v}"], [v]
    if choice == 14:
        v = password(rng).replace('"', "")
        return "password", ["scrape_configs:", "  - job_name: node", "    basic_auth:", f"      username: {user}", f'      password: "{v}"',
                            "    static_configs:"], [v]
    if choice == 15:
        v = password(rng)
        name = rng.choice(["spring.datasource.password", "mail.smtp.password", "ldap.bind.credentials", "quarkus.datasource.password"])
        return "password", ["# application.properties", f"spring.datasource.username={user}", f"{name}={v}"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["```bash", f"export OPENWEATHER_KEY={v[:32]}", "python fetch.py --city Oslo", "```"], [v[:32]]
    if choice == 17:
        v = rand(rng, ALNUM, 40)
        return "api_key", [rng.choice([f'const apiSecret = "{v}"', f'pub const API_SECRET: &str = "{v}";', f'API_SECRET = "{v}"  # TODO move to env'])], [v]
    if choice == 18:
        v = password(rng)
        return "password", ["Weekly sync — Thursday 10:00", "Join: https://meet.acme.io/r/weekly", f"Room passcode: {v}" if rng.random() < 0.5 else f"Meeting password {v}",
                            "Accept    Decline"], [v]
    if choice == 19:
        v = password(rng)
        return "password", ["GUEST WIFI", f"Network: {rng.choice(['Acme-Guest', 'CafeNord', 'Hotel_Lobby'])}", f"Key: {v}", "Enjoy your stay"], [v]
    if choice == 20:
        v = rand(rng, string.digits, 6)
        return "otp", [rng.choice([f"{v} — your Acme sign-in code", f"Acme: {v}", f"[{v}] Acme login"]), "Don't share it with anyone. Expires in 10 min.", "now"], [v]
    if choice == 21:
        v = "-".join(rand(rng, string.digits, 6) for _ in range(8))
        return "password", ["BitLocker recovery", "Recovery key ID: " + rand(rng, "0123456789ABCDEF", 8), "Recovery key:", v], [v]
    if choice == 22:
        v = rand(rng, string.digits, 4)
        return "otp", ["Your new card", "Dear customer,", f"the PIN for your card ending {rand(rng, string.digits, 4)} is", v,
                       "Please memorise it and destroy this letter."], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl -H 'X-Auth-Token: {v}' https://api.{host}/v1/servers", '{"servers": []}'], [v]
    if choice == 24:
        v = password(rng).replace("'", "")
        return "password", [f"$ mysqladmin -u root password '{v}'", "mysqladmin: [Warning] Using a password on the command line interface can be insecure."], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["Settings › Integrations › Zapier", "API key", v[:4] + " " + v[4:], "Regenerate"], [v]
    if choice == 26:
        v = password(rng)
        return "password", ["From: IT Service Desk", "Subject: Your account", f"Hi {user}, your account is ready.",
                            f"Username: {user}  Temporary password: {v}", "You will be asked to change it at first sign-in."], [v]
    if choice == 27:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["$ docker run -d \\", f"    -e DD_API_KEY={v[:32]} \\", "    -e DD_SITE=datadoghq.eu \\", "    gcr.io/datadoghq/agent:7"], [v[:32]]
    if choice == 28:
        v = password(rng)
        return "password", ["Router admin", "Device name    Archer AX55", f"Login password    {v}", "Firmware    1.3.2 Build 20240112"], [v]
    if choice == 29:
        v = base64.b64encode(rng.randbytes(33)).decode()
        return "api_key", ["$ kubectl get secret app-tls -o yaml", "apiVersion: v1", "data:", f"  api-token: {v}", "kind: Secret"], [v]
    if choice == 30:
        v = rand(rng, string.digits, 8)
        return "otp", ["Bank", f"mTAN for transfer to DE89 **** 3000: {v}" if rng.random() < 0.5 else f"Ihre TAN lautet {v}", "Valid for 5 minutes"], [v]
    v = password(rng).replace("'", "")
    return "password", [f"$ openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout 'pass:{v}'", "$ "], [v]


def ninth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["$ sudo grep HashedControlPassword /etc/tor/torrc", f"HashedControlPassword 16:{rand(rng, '0123456789ABCDEF', 58)}"]
    if choice == 1:
        return ["$ sudo getent shadow noor", f"noor:$6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}:19800:0:99999:7:::"]
    if choice == 2:
        return ["id | email | password_hash", f"7 | noor@acme.io | $2b$12${rand(rng, ALNUM + './', 53)}"]
    if choice == 3:
        return ["$ openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout env:P12_PASSWORD", "$ "]
    if choice == 4:
        return ["$ restic -r /srv/restic --password-file /run/secrets/restic snapshots", "ID        Time                 Host",
                f"{rand(rng, HEX, 8)}  2026-11-02 03:00:01  nas-01", f"{rand(rng, HEX, 8)}  2026-11-09 03:00:02  nas-01"]
    if choice == 5:
        return ["Payments", f"pi_{rand(rng, ALNUM, 24)}    €42.00    Succeeded", f"cus_{rand(rng, ALNUM, 14)}    noor@acme.io",
                f"ch_{rand(rng, ALNUM, 24)}    Refunded"]
    if choice == 6:
        return ['{"keys": [{"kty": "RSA", "kid": "' + rand(rng, HEX, 16) + '", "use": "sig",',
                f'  "n": "{rand(rng, ALNUM + "-_", 86)}", "e": "AQAB"}}]}}']
    if choice == 7:
        return ["$ git lfs ls-files -l", f"{rand(rng, HEX, 64)} * assets/logo.psd"]
    if choice == 8:
        return ["Generate a secret:", "    openssl rand -hex 32", "and put it in SECRET_KEY in your .env (never commit it)."]
    if choice == 9:
        return ["$ uuidgen", str(uuid.UUID(bytes=rng.randbytes(16))), "$ cat /proc/sys/kernel/random/boot_id", str(uuid.UUID(bytes=rng.randbytes(16)))]
    if choice == 10:
        return ["Transaction", f"Tx hash 0x{rand(rng, HEX, 64)}", f"Block {rng.randint(18000000, 21000000)}", "Status: Success"]
    if choice == 11:
        return ["Authenticator", "Acme (noor@acme.io)", "••• •••", "GitHub", "••• •••"]
    if choice == 12:
        return ["$ npm audit", f"lodash  <4.17.21", "Severity: high", f"Command Injection - https://github.com/advisories/GHSA-{rand(rng, '23456789cfghjmpqrvwx', 4)}-{rand(rng, '23456789cfghjmpqrvwx', 4)}-{rand(rng, '23456789cfghjmpqrvwx', 4)}"]
    if choice == 13:
        return ["$ docker trust inspect --pretty acme/app:1.4", "Signer    Digest                                                              Signers",
                f"1.4       {rand(rng, HEX, 64)}    ci", f"Root Key:    {rand(rng, HEX, 64)}"]
    if choice == 14:
        return ["Order confirmation", f"Order #{rng.randint(100000, 999999)}", f"Tracking 1Z{rand(rng, string.ascii_uppercase + string.digits, 16)}",
                f"Total €{rng.randint(10, 500)}.{rng.randint(10, 99)}", "Password protected? No"]
    return ["# config.yaml", "auth:", "  password: ${DB_PASSWORD}", "  token: {{ .Values.apiToken }}", "  secret: !vault |", "    $ANSIBLE_VAULT;1.1;AES256"]


def tenth_secret_case(rng):
    """The tenth pool (`--pool tenth`): written after the ninth pool had been through four rounds,
    before any rule was run on it, from places none of the earlier pools has: a GitLab runner's
    `glrt-` token, Bitwarden's `BW_SESSION`, Fastlane's and `match`'s passwords, a SIM card's PUK,
    Rails' `secret_key_base`, a Matrix access token, a `CLOUDINARY_URL`, Terraform Cloud's
    `.atlasv1.` token, CircleCI, Buildkite, SonarQube and Heroku tokens, `keepassxc-cli show -s`,
    `printenv` lines named `*_PASS`/`*_PWD`, a `.git-credentials` file, colloquial chat (`pw is`,
    `creds: user / pass`), codes spoken in groups (`481 293`, `481-293`) and a bank's code beside an
    amount, a browser's suggested password, `code-server`'s config, `sssd.conf`'s
    `ldap_default_authtok`, an OpenVPN `auth.txt` (a user line, then the password alone),
    `kubectl config view --raw`, `aws sts get-session-token` JSON, `terraform output`, a Nextcloud
    app password, `AGE-SECRET-KEY-1`, NetworkManager's keyfile `psk=`, `mosquitto_sub -P`, a `.env` with `export` and spaces around `=`, a YAML flow mapping and an Android
    `signingConfigs` block."""
    user = rng.choice(["deploy", "admin", "ci", "noor", "svc_backup", "ops", "build", "mika"])
    host = rng.choice(["git.acme.io", "10.0.4.12", "nas.lan", "db-02.internal", "192.168.10.3"])
    choice = rng.randrange(32)
    if choice == 0:
        v = "glrt-" + rand(rng, ALNUM + "-_", 20)
        return "api_key", [f"$ sudo gitlab-runner register --non-interactive --url https://{host} \\", f"    --token {v} --executor docker",
                           "Runtime platform  arch=amd64 os=linux"], [v[5:]]
    if choice == 1:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["$ bw unlock", "? Master password: [hidden]", "Your vault is now unlocked!", "To unlock your vault, set your session key:",
                           f'$ export BW_SESSION="{v}"'], [v]
    if choice == 2:
        v = password(rng).replace('"', "")
        name = rng.choice(["FASTLANE_PASSWORD", "MATCH_PASSWORD", "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD"])
        return "password", ["# fastlane/.env.default", f"FASTLANE_USER={user}@acme.io", f'{name}="{v}"', "FASTLANE_TEAM_ID=8RX2Q9A7LM"], [v]
    if choice == 3:
        v = rand(rng, string.digits, 8)
        return "password", ["Your SIM card", f"PIN1  {rand(rng, string.digits, 4)}", f"PUK1  {v}", "Keep this card in a safe place."], [v]
    if choice == 4:
        v = rand(rng, HEX, 128)
        return "api_key", ["$ bin/rails credentials:show", "# aws:", "#   access_key_id: 123", "", f"secret_key_base: {v}"], [v]
    if choice == 5:
        v = "syt_" + rand(rng, ALNUM, 12) + "_" + rand(rng, ALNUM, 20) + "_" + rand(rng, ALNUM, 6)
        return "api_key", ["Settings · Help & About", "Advanced", "Homeserver is https://matrix.acme.io", "Access Token", v,
                           "Your access token gives full access to your account. Do not share it with anyone."], [v[4:]]
    if choice == 6:
        key, secret = rand(rng, string.digits, 15), rand(rng, ALNUM + "-_", 27)
        return "api_key", [f"CLOUDINARY_URL=cloudinary://{key}:{secret}@acme-media", "NODE_ENV=production"], [secret]
    if choice == 7:
        v = rand(rng, ALNUM, 14) + ".atlasv1." + rand(rng, ALNUM, 67)
        return "api_key", ["$ cat ~/.terraform.d/credentials.tfrc.json", "{", '  "credentials": {', '    "app.terraform.io": {',
                           f'      "token": "{v}"', "    }", "  }", "}"], [v]
    if choice == 8:
        provider, prefix, body = rng.choice([("CircleCI", "CCIPAT_", rand(rng, ALNUM, 22) + "_" + rand(rng, HEX, 40)),
                                              ("Buildkite", "bkua_", rand(rng, HEX, 40)), ("SonarQube", "squ_", rand(rng, HEX, 40)),
                                              ("Heroku", "HRKU-", rand(rng, ALNUM + "-_", 60))])
        return "api_key", [f"{provider} — Personal API Tokens", f"Name: {user}-laptop", f"Token: {prefix}{body}", "Created just now"], [body]
    if choice == 9:
        v = password(rng)
        return "password", [f"$ keepassxc-cli show -s ~/vault.kdbx Email/{user}", "Title: Work mail", f"UserName: {user}@acme.io",
                            f"Password: {v}", "URL: https://mail.acme.io", "Notes:"], [v]
    if choice == 10:
        v = password(rng)
        name = rng.choice(["SMTP_PASS", "MYSQL_PWD", "REDIS_PASS", "LDAP_BIND_PW", "MQTT_PASS", "FTP_PWD"])
        return "password", ["$ printenv | grep -iE 'pass|pwd|pw'", f"{name}={v}", "PWD=/home/" + user], [v]
    if choice == 11:
        if rng.random() < 0.5:
            kind, v, shown = "api_key", rand(rng, ALNUM, 36), None
            shown = "ghp_" + v
        else:
            kind, v = "password", password(rng).replace("@", "").replace(":", "").replace("/", "")
            shown = v
        return kind, ["$ cat ~/.git-credentials", f"https://{user}:{shown}@github.com"], [v]
    if choice == 12:
        v = password(rng)
        line = rng.choice([f"pw is {v}", f"the pwd: {v}", f"creds: {user} / {v}", f"login {user} pass {v}", f"user {user}, pw {v} — don't share"])
        return "password", [f"{rng.choice(['Ana', 'Jonas', 'Priya'])}  10:42", "can you check the staging box?", line, "thx 🙏"], [v]
    if choice == 13:
        v = rand(rng, string.digits, 6)
        shown = rng.choice([f"{v[:3]} {v[3:]}", f"{v[:3]}-{v[3:]}"])
        return "otp", ["Messages · now", rng.choice([f"Your verification code is {shown}", f"{shown} is your Acme security code",
                                                     f"Use {shown} to sign in to Acme. Never share this code."])], [v]
    if choice == 14:
        v = rand(rng, string.digits, 6)
        return "otp", ["HDFC Bank", f"OTP for txn of INR {rng.randint(100, 9999)}.00 at AMAZON on card XX{rand(rng, string.digits, 4)} is {v}. Valid for 3 mins. Do not share."], [v]
    if choice == 15:
        v = "-".join(rand(rng, string.ascii_letters + string.digits, 3) + rand(rng, string.ascii_letters + string.digits, 3) for _ in range(3))
        return "password", ["Sign up", f"Email   {user}@acme.io", "Password   ••••••••••••••••", "Use suggested password", v, "Chrome will save this password in Google Password Manager"], [v]
    if choice == 16:
        v = rand(rng, string.ascii_lowercase + string.digits, 24)
        return "password", ["$ cat ~/.config/code-server/config.yaml", "bind-addr: 127.0.0.1:8080", "auth: password", f"password: {v}", "cert: false"], [v]
    if choice == 17:
        v = password(rng)
        return "password", ["# /etc/sssd/sssd.conf", "[domain/acme.io]", "id_provider = ldap", f"ldap_default_bind_dn = cn={user},dc=acme,dc=io",
                            "ldap_default_authtok_type = password", f"ldap_default_authtok = {v}"], [v]
    if choice == 18:
        v = password(rng)
        return "password", ["$ sudo cat /etc/openvpn/client/auth.txt", f"{user}", v, "$ sudo systemctl restart openvpn-client@office"], [v]
    if choice == 19:
        v = jwt(rng)
        return "api_key", ["$ kubectl config view --raw", "users:", f"- name: {user}", "  user:", f"    token: {v}"], [v.split(".")[2]]
    if choice == 20:
        sk, st = rand(rng, ALNUM + "+/", 40), "IQoJb3JpZ2luX2Vj" + rand(rng, ALNUM + "+/", 200)
        return "api_key", ["$ aws sts get-session-token", "{", '    "Credentials": {', f'        "AccessKeyId": "ASIA{rand(rng, B32, 16)}",',
                           f'        "SecretAccessKey": "{sk}",', f'        "SessionToken": "{st[:90]}', "}"], [sk, st[16:90]]
    if choice == 21:
        v = password(rng).replace('"', "")
        return "password", ["$ terraform output", f'db_host = "{host}"', f'db_password = "{v}"', 'db_port = 5432'], [v]
    if choice == 22:
        v = "-".join(rand(rng, string.ascii_letters + string.digits, 5) for _ in range(5))
        return "password", ["Nextcloud · Security", "Devices & sessions", f"App name   {rng.choice(['Thunderbird', 'DAVx5', 'phone'])}",
                            "Use the credentials below to configure your app or device.", f"Username  {user}", f"Password  {v}", "Done"], [v]
    if choice == 23:
        v = "AGE-SECRET-KEY-1" + rand(rng, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
        return "api_key", ["$ age-keygen -o key.txt", f"Public key: age1{rand(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}", "$ cat key.txt",
                           "# created: 2026-11-20T10:02:11Z", v], [v[16:]]
    if choice == 24:
        v = password(rng)
        return "password", ["$ sudo cat /etc/NetworkManager/system-connections/Home.nmconnection", "[wifi]", "ssid=Home-5G",
                            "[wifi-security]", "key-mgmt=wpa-psk", f"psk={v}"], [v]
    if choice == 25:
        v = password(rng).replace("'", "")
        return "password", [f"$ mosquitto_sub -h {host} -t 'sensors/#' -u {user} -P '{v}'", "sensors/kitchen/temp 21.4"], [v]
    if choice == 26:
        v = rand(rng, ALNUM, 40)
        name = rng.choice(["OPENAI_API_KEY", "STRIPE_SECRET", "SENDGRID_TOKEN", "MAPS_SECRET_KEY"])
        return "api_key", ["# .env", f"export {name} = {v}", "export DEBUG = false"], [v]
    if choice == 27:
        v = password(rng).replace(",", "").replace("}", "")
        return "password", ["# docker-compose.override.yml", "services:", "  db:", f"    environment: {{POSTGRES_USER: {user}, POSTGRES_PASSWORD: {v}}}"], [v]
    if choice == 28:
        a, b = password(rng).replace('"', ""), password(rng).replace('"', "")
        return "password", ["android {", "    signingConfigs {", "        release {", '            storeFile file("release.jks")',
                            f'            storePassword "{a}"', '            keyAlias "upload"', f'            keyPassword "{b}"'], [a, b]
    if choice == 29:
        v = rand(rng, string.ascii_uppercase + string.digits, 5)
        return "otp", ["Steam", f"Hi {user},", "Here is the Steam Guard code you need to login to account " + user + ":", v,
                       "This email was generated because of a login attempt from a web or mobile device."], [v]
    if choice == 30:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl https://api.{host}/v2/items \\", f"    -H 'apikey: {v}'"], [v]
    v = password(rng).replace("'", "")
    return "password", [f"$ ldapmodify -x -H ldap://{host} -D 'cn=admin,dc=acme,dc=io' -y <(echo -n '{v}') -f add.ldif", "modifying entry"], [v]


def tenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ['"usage": {', f'  "prompt_tokens": {rng.randint(100, 9000)},', f'  "completion_tokens": {rng.randint(10, 4000)},',
                f'  "total_tokens": {rng.randint(9000, 13000)}', "},", '"max_tokens": 4096']
    if choice == 1:
        return ["$ ./run.sh", "Killed", f"Process exited with exit code {rng.choice([1, 2, 137, 143])}",
                f"HTTP status code {rng.choice([404, 429, 503])} from https://api.acme.io", f"ZIP code {rand(rng, string.digits, 5)}"]
    if choice == 2:
        return ["Vehicle", f"VIN  {rand(rng, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789', 17)}", f"Serial number  C02{rand(rng, string.ascii_uppercase + string.digits, 9)}",
                f"Registration  {rand(rng, string.ascii_uppercase, 2)}{rng.randint(10, 99)} {rand(rng, string.ascii_uppercase, 3)}"]
    if choice == 3:
        return ["<script>", f"  posthog.init('phc_{rand(rng, ALNUM, 43)}', {{api_host: 'https://eu.posthog.com'}})",
                f"  mapboxgl.accessToken = 'pk.eyJ1Ijoi{rand(rng, ALNUM, 30)}.{rand(rng, ALNUM + '-_', 22)}';", "</script>"]
    if choice == 4:
        return ["Account security", f"Password last changed {rng.randint(2, 40)} days ago", f"Password expires in {rng.randint(2, 30)} days",
                "Minimum password length: 12", "Two-factor authentication: On"]
    if choice == 5:
        return ["$ curl -sI https://acme-assets.s3.amazonaws.com/logo.png", f"x-amz-id-2: {base64.b64encode(rng.randbytes(57)).decode()}",
                f"x-amz-request-id: {rand(rng, '0123456789ABCDEF', 16)}", f'ETag: "{rand(rng, HEX, 32)}"']
    if choice == 6:
        return ["Watch later", f"https://youtu.be/{rand(rng, ALNUM + '-_', 11)}", f"https://bit.ly/{rand(rng, ALNUM, 7)}",
                f"https://www.youtube.com/watch?v={rand(rng, ALNUM + '-_', 11)}&t=42s"]
    if choice == 7:
        return ["Settings", "API key: not set", "token: null", "password: (none)", "secret: false", "Secret Santa draw on Friday!"]
    if choice == 8:
        return ["$ nmcli dev wifi list", "BSSID              SSID        CHAN  SIGNAL  SECURITY",
                f"{':'.join(rand(rng, '0123456789ABCDEF', 2) for _ in range(6))}  Home-5G     36    82      WPA2",
                f"{':'.join(rand(rng, '0123456789ABCDEF', 2) for _ in range(6))}  CafeNord    6     40      WPA2 WPA3"]
    if choice == 9:
        return ["HTTP/1.1 200 OK", f"Content-MD5: {base64.b64encode(rng.randbytes(16)).decode()}",
                f"Digest: sha-256={base64.b64encode(rng.randbytes(32)).decode()}", "Content-Type: application/json"]
    if choice == 10:
        return ["$ git config --global user.signingkey", rand(rng, "0123456789ABCDEF", 16), "$ git config --global commit.gpgsign", "true"]
    if choice == 11:
        return ["Share with me", f"age recipient: age1{rand(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
                f"nostr: npub1{rand(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"]
    if choice == 12:
        return ["$ git ls-remote origin", f"{rand(rng, HEX, 40)}\tHEAD", f"{rand(rng, HEX, 40)}\trefs/heads/main", f"{rand(rng, HEX, 40)}\trefs/tags/v2.4.1"]
    if choice == 13:
        return ["$ docker volume ls", "DRIVER    VOLUME NAME", f"local     {rand(rng, HEX, 64)}", "local     pgdata"]
    if choice == 14:
        return ["Your reservation", f"Confirmation number: {rng.randint(10000000, 99999999)}", f"Check-in code for the app: see email",
                f"Record locator {rand(rng, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}", "Room 412 · 2 nights"]
    return ["Keyboard shortcuts", "Key: Ctrl+Shift+P   Command palette", "Key: F5   Start debugging", f"Token count: {rng.randint(1000, 90000):,}"]


def login_parts(rng):
    """A user's name and a host, as the eleventh and twelfth pools draw them."""
    user = rng.choice(["deploy", "admin", "ci", "lena", "svc_sync", "ops", "root", "tomas"])
    host = rng.choice(["git.acme.io", "10.0.8.21", "nas.home", "db-03.internal", "192.168.1.40"])
    return user, host


def plain_password(rng):
    """A password without the quotes, colon, `@` or `/` that would end it in a URL or a quoted value."""
    return password(rng).replace("'", "").replace('"', "").replace(":", "").replace("@", "").replace("/", "")


def eleventh_secret_case(rng):
    """The eleventh pool (`--pool eleventh`): written after the tenth pool had been through several
    rounds and the bounded-cost work, before any rule was run on it, from places none of the earlier
    pools has: `pip.conf`'s index URL, HTTPie's `-a`, `wp user create --user_pass`, `mysqldump
    --password=`, `chpasswd`, ngrok's and cloudflared's tokens, a `wrangler secret put` prompt,
    `hcloud` and `linode-cli` prompts, Scaleway's UUID secret key, OVH's `ovh.conf`, a Graph API
    `access_token` query, Supabase's service-role key, `vercel --token`, Home Assistant's long-lived
    token, WebOTP-bound SMS codes (`@acme.io #123456`), seven-digit codes, an Amex number in 4-6-5
    groups, `unrar -p`, Ansible's `ansible_become_pass`, R's `Sys.setenv`, Redis' `requirepass` and
    `masterauth`, Gitea's `app.ini`, Nextcloud's `config.php`, Synapse's shared secrets, Mastodon's
    `OTP_SECRET`, `netsh wlan … key=clear`, an Azure Service Bus `SharedAccessKey`, a `rediss://`
    URL, TeamSpeak's first-start log, Wi-Fi and admin logins in chat, and codes with no `code` word."""
    user, host = login_parts(rng)
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng)
        return "password", ["$ cat ~/.config/pip/pip.conf", "[global]", f"index-url = https://{user}:{v}@pypi.acme.io/simple/",
                            "trusted-host = pypi.acme.io"], [v]
    if choice == 1:
        v = plain_password(rng)
        return "password", [f"$ http -a {user}:{v} POST https://{host}/api/items name=lamp", "HTTP/1.1 201 Created",
                            "Content-Type: application/json"], [v]
    if choice == 2:
        v = plain_password(rng)
        return "password", [f"$ wp user create {user} {user}@acme.io --role=editor --user_pass='{v}'",
                            f"Success: Created user {rng.randint(2, 90)}."], [v]
    if choice == 3:
        v = plain_password(rng)
        return "password", [f"$ mysqldump --user=root --password={v} --single-transaction shop > shop.sql",
                            "mysqldump: [Warning] Using a password on the command line interface can be insecure."], [v]
    if choice == 4:
        v = plain_password(rng)
        return "password", [f"$ echo '{user}:{v}' | sudo chpasswd", f"$ sudo passwd -e {user}", "passwd: password expiry information changed."], [v]
    if choice == 5:
        v = "2" + rand(rng, ALNUM, 26) + "_" + rand(rng, ALNUM, 21)
        return "api_key", [f"$ ngrok config add-authtoken {v}", "Authtoken saved to configuration file: /home/lena/.config/ngrok/ngrok.yml"], [v]
    if choice == 6:
        token = base64.b64encode(json.dumps({"a": rand(rng, HEX, 32), "t": str(uuid.UUID(bytes=rng.randbytes(16))),
                                             "s": base64.b64encode(rng.randbytes(24)).decode()}).encode()).decode()
        return "api_key", ["$ sudo cloudflared service install \\", f"    {token[:80]}\\", f"    {token[80:]}",
                           "INF Using Systemd", "INF Linux service for cloudflared installed successfully"], [token[:80], token[80:]]
    if choice == 7:
        v = rand(rng, ALNUM + "-_", 32)
        return "api_key", ["$ npx wrangler secret put STRIPE_KEY", f"✔ Enter a secret value: … {v}",
                           '🌀 Creating the secret for the Worker "shop-api"', "✨ Success! Uploaded secret STRIPE_KEY"], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["$ hcloud context create prod", f"Token: {v}", "Context prod created and activated"], [v]
    if choice == 9:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ linode-cli configure --token", f"Personal Access Token: {v}", "Default Region (Optional): eu-central"], [v]
    if choice == 10:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ cat ~/.config/scw/config.yaml", f"access_key: SCW{rand(rng, string.ascii_uppercase + string.digits, 17)}",
                           f"secret_key: {v}", f"default_organization_id: {uuid.UUID(bytes=rng.randbytes(16))}", "default_region: fr-par"], [v]
    if choice == 11:
        a, b = rand(rng, ALNUM, 32), rand(rng, ALNUM, 32)
        return "api_key", ["# ovh.conf", "[default]", "endpoint=ovh-eu", "[ovh-eu]", f"application_key={rand(rng, ALNUM, 16)}",
                           f"application_secret={a}", f"consumer_key={b}"], [a, b]
    if choice == 12:
        v = "EAAC" + rand(rng, ALNUM, 72)
        return "api_key", ['$ curl -s "https://graph.facebook.com/v19.0/me/accounts?\\', f'access_token={v}"', '{"data": []}'], [v[4:]]
    if choice == 13:
        v = jwt(rng)
        return "api_key", ["# .env.local", "NEXT_PUBLIC_SUPABASE_URL=https://qxkrzv.supabase.co", f"SUPABASE_SERVICE_ROLE_KEY={v}"], [v.split(".")[2]]
    if choice == 14:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f"$ vercel deploy --prod --token {v}", "Vercel CLI 33.0.1", "✅  Production: https://shop-acme.vercel.app [2s]"], [v]
    if choice == 15:
        v = jwt(rng)
        return "api_key", ["Profile · Security", "Long-lived access tokens", "Copy your access token. It will not be shown again.", v, "OK"], [v.split(".")[2]]
    if choice == 16:
        v = rand(rng, string.digits, 6)
        return "otp", ["Messages · Today 09:14", rng.choice([f"{v} is your Acme login code. Don't share it.", f"Acme: {v}"]), "", f"@login.acme.io #{v}"], [v]
    if choice == 17:
        v = rand(rng, string.digits, 7)
        return "otp", ["Inbox", rng.choice([f"Use verification code {v} for Microsoft authentication.", f"Security code: {v}",
                                            f"Your Contoso sign-in code: {v}"]), "If you didn't request a code, you can safely ignore this email."], [v]
    if choice == 18:
        v = luhn_complete(rng, rng.choice(["34", "37"]), 15)
        return "card", ["Wallet · Cards", "American Express Gold", f"{v[:4]} {v[4:10]} {v[10:]}",
                        f"Valid thru {rng.randint(1, 12):02d}/{rng.randint(27, 31)}", "Security code  ••••"], [v]
    if choice == 19:
        v = plain_password(rng)
        return "password", [f"$ unrar x -p{v} backup-2026.rar /srv/restore/", "Extracting from backup-2026.rar", "All OK"], [v]
    if choice == 20:
        v = plain_password(rng)
        return "password", ["# inventory/hosts.ini", "[db]", f"{host} ansible_user={user} ansible_become_pass={v}"], [v]
    if choice == 21:
        if rng.random() < 0.5:
            v, shown = rand(rng, ALNUM, 36), None
            shown = "ghp_" + v
        else:
            v = shown = rand(rng, ALNUM, 40)
        name = "GITHUB_PAT" if shown.startswith("ghp_") else rng.choice(["ACME_API_SECRET", "MAPS_KEY", "DB_PASS"])
        return "api_key", [f'> Sys.setenv({name} = "{shown}")', '> remotes::install_github("acme/tools")'], [v]
    if choice == 22:
        a, b = plain_password(rng), plain_password(rng)
        return "password", ["$ grep -E '^(bind|requirepass|masterauth)' /etc/redis/redis.conf", "bind 127.0.0.1 ::1",
                            f"requirepass {a}", f"masterauth {b}"], [a, b]
    if choice == 23:
        a, b = rand(rng, ALNUM, 64), jwt(rng)
        return "api_key", ["# custom/conf/app.ini", "[security]", "INSTALL_LOCK = true", f"SECRET_KEY = {a}", f"INTERNAL_TOKEN = {b}"], [a, b.split(".")[2]]
    if choice == 24:
        salt, secret, v = rand(rng, ALNUM + "+/", 30), rand(rng, ALNUM + "+/", 48), plain_password(rng)
        return "password", ["<?php", "$CONFIG = array (", f"  'passwordsalt' => '{salt}',", f"  'secret' => '{secret}',",
                            f"  'dbuser' => 'nextcloud',", f"  'dbpassword' => '{v}',"], [salt, secret, v]
    if choice == 25:
        symbols = ALNUM + ".,;:^&*-_+=#~@"
        a, b = rand(rng, symbols, 50), rand(rng, symbols, 50)
        return "api_key", ["# homeserver.yaml", "server_name: matrix.acme.io", f'registration_shared_secret: "{a}"',
                           f'macaroon_secret_key: "{b}"'], [a, b]
    if choice == 26:
        a, b = rand(rng, HEX, 64), base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
        return "api_key", ["# .env.production", "LOCAL_DOMAIN=social.acme.io", f"OTP_SECRET={a}", f"VAPID_PRIVATE_KEY={b}",
                           f"VAPID_PUBLIC_KEY=B{rand(rng, ALNUM + '-_', 86)}"], [a, b]
    if choice == 27:
        v = plain_password(rng)
        return "password", ['> netsh wlan show profile name="Home-5G" key=clear', "Security settings", "    Authentication         : WPA2-Personal",
                            "    Security key           : Present", f"    Key Content            : {v}"], [v]
    if choice == 28:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["ServiceBusConnection:", "  Endpoint=sb://acme.servicebus.windows.net/;",
                           f"  SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={v}"], [v]
    if choice == 29:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"REDIS_URL=rediss://default:{v}@eu1-rapid-fox-31337.upstash.io:6379", "REDIS_TLS=true"], [v]
    if choice == 30:
        a, b = rand(rng, ALNUM, 8), rand(rng, ALNUM + "+", 40)
        return "password", ["I M P O R T A N T", "Server Query Admin Account created",
                            f'loginname= "serveradmin", password= "{a}"', "ServerAdmin privilege key created, please use it to gain",
                            "serveradmin rights for your virtualserver.", f"token={b}"], [a, b]
    v = plain_password(rng)
    ssid = rng.choice(["Home-5G", "Nordlys", "CafeGuest"])
    line = rng.choice([f"new wifi: {ssid} / {v}", f"guest wifi is {ssid}, key {v}", f"the admin login is {user} + {v}",
                       f"it's {v} (capital first letter)", f"door's open, laptop pw {v}"])
    return "password", [f"{rng.choice(['Maja', 'Omar', 'Kenji'])}  18:03", line, "👍"], [v]


def eleventh_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["> db.orders.find({}, {_id: 1})"] + [f'{{ _id: ObjectId("{rand(rng, HEX, 24)}") }}' for _ in range(3)]
    if choice == 1:
        return ["Onion-Location", f"http://{rand(rng, 'abcdefghijklmnopqrstuvwxyz234567', 56)}.onion/", "Tor Browser 13.0.1"]
    if choice == 2:
        return [f"magnet:?xt=urn:btih:{rand(rng, HEX, 40)}", "&dn=debian-12.8.0-amd64-netinst.iso", f"Seeds: {rng.randint(10, 900)}  Peers: {rng.randint(1, 90)}"]
    if choice == 3:
        return ["Share", f"spotify:track:{rand(rng, ALNUM, 22)}", f"https://open.spotify.com/playlist/{rand(rng, ALNUM, 22)}?si={rand(rng, HEX, 16)}"]
    if choice == 4:
        return ["<script>", f"  const stripe = Stripe('pk_test_{rand(rng, ALNUM, 24)}');", "</script>",
                f'<div class="g-recaptcha" data-sitekey="6Lc{rand(rng, ALNUM + "-_", 37)}"></div>']
    if choice == 5:
        return ["# settings.env", f"PASSWORD_MIN_LENGTH={rng.randint(8, 16)}", f"PASSWORD_RESET_TIMEOUT={rng.choice([900, 3600, 86400])}",
                "TOKEN_EXPIRY_SECONDS=86400", "SECRET_ROTATION_DAYS=90", "API_KEY_HEADER=X-Api-Key"]
    if choice == 6:
        return ["{", '  "token_type": "Bearer",', f'  "expires_in": {rng.choice([3599, 3600, 7200])},', '  "scope": "read write",',
                f'  "refresh_token_expires_in": {rng.randint(10**6, 10**7)}', "}"]
    if choice == 7:
        return ["$ docker ps", "CONTAINER ID   IMAGE         STATUS"] + \
            [f"{rand(rng, HEX, 12)}   {rng.choice(['postgres:16', 'redis:7', 'nginx:1.27'])}   Up {rng.randint(2, 59)} minutes" for _ in range(3)]
    if choice == 8:
        return ['Exception in thread "main" java.lang.NullPointerException', f"\tat com.acme.Shop.checkout(Shop.java:{rng.randint(20, 900)})",
                f"\tat com.acme.Main.main(Main.java:{rng.randint(5, 60)})", f"Object@{rand(rng, HEX, 8)} hashCode=0x{rand(rng, HEX, 8)}"]
    if choice == 9:
        return ["$ sudo certbot certificates", "  Certificate Name: acme.io", f"    Serial Number: {rand(rng, HEX, 36)}",
                "    Key Type: ECDSA", f"    Expiry Date: 2027-02-{rng.randint(10, 28)} (VALID: {rng.randint(20, 89)} days)"]
    if choice == 10:
        return ["metadata:", f'  resourceVersion: "{rng.randint(10**6, 10**8)}"', f"  uid: {uuid.UUID(bytes=rng.randbytes(16))}", "  generation: 3"]
    if choice == 11:
        return ["About", f"Device ID  {str(uuid.UUID(bytes=rng.randbytes(16))).upper()}",
                f"Product ID  {rng.randint(10000, 99999)}-{rng.randint(10000, 99999)}-{rng.randint(10000, 99999)}-AA{rng.randint(100, 999)}",
                f"OS build  22631.{rng.randint(1000, 4999)}"]
    if choice == 12:
        return ["Statement", f"Account ending in {rand(rng, string.digits, 4)}", f"Reference: {rand(rng, string.ascii_uppercase + string.digits, 12)}",
                f"Transaction ID {rand(rng, string.digits, 16)}", f"Amount  €{rng.randint(5, 900)}.{rng.randint(10, 99)}"]
    if choice == 13:
        return ["Saved passwords", f"{rng.randint(20, 400)} passwords saved", "Check passwords", "No compromised passwords found",
                "Password Manager settings"]
    if choice == 14:
        return ["$ git log --oneline -3", f"{rand(rng, HEX, 7)} Rotate API token before expiry", f"{rand(rng, HEX, 7)} Remove password from logs",
                f"{rand(rng, HEX, 7)} Add secret scanning to CI"]
    return ["$ git stash list", f"stash@{{0}}: WIP on main: {rand(rng, HEX, 7)} Fix tokenizer", f"stash@{{1}}: On auth: {rand(rng, HEX, 7)} key rotation"]


def twelfth_secret_case(rng):
    """The twelfth pool (`--pool twelfth`): written after the eleventh pool had been through one round,
    before any rule was run on it, from places none of the earlier pools has: `iwctl --passphrase`,
    Docker Swarm and `kubeadm` join tokens, MinIO's `mc alias set` (keys as bare arguments), `.npmrc`'s
    `_auth`, Emacs' `.authinfo`, mutt's `imap_pass`, `.msmtprc` and fetchmail, `x11vnc -passwd`,
    `schtasks /RP`, `sc.exe … password=`, Vault's unseal keys, HAProxy's `stats auth`,
    Elasticsearch's and Jenkins' first-start passwords, MySQL's temporary password log line, Neo4j's
    and Grafana's password commands, `pulumi config set --secret`, a notebook's `%env`, OpenRouter and
    Bitbucket keys, Azure storage keys in JSON, `adb pair`, Apple, Google and PayPal codes, TeamViewer,
    PostgreSQL user mappings, an LDIF `olcRootPW`, Syncthing's API key, ntfy tokens, `curl
    --oauth2-bearer`, and chat lines with `admin/…` and arrows."""
    user, host = login_parts(rng)
    lower36 = string.ascii_lowercase + string.digits
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng)
        return "password", [f"$ iwctl --passphrase '{v}' station wlan0 connect Nordlys", "$ iwctl station wlan0 show | grep State",
                            "            State                 connected"], [v]
    if choice == 1:
        a, b = rand(rng, lower36, 50), rand(rng, lower36, 25)
        return "api_key", ["To add a worker to this swarm, run the following command:", "",
                           f"    docker swarm join --token SWMTKN-1-{a}-{b} 10.0.0.5:2377", ""], [a, b]
    if choice == 2:
        v = rand(rng, lower36, 6) + "." + rand(rng, lower36, 16)
        return "api_key", ["You can now join any number of machines by running the following on each node", "as root:", "",
                           f"  kubeadm join 10.0.0.5:6443 --token {v} \\", f"        --discovery-token-ca-cert-hash sha256:{rand(rng, HEX, 64)}"], [v]
    if choice == 3:
        a, b = rand(rng, string.ascii_uppercase + string.digits, 20), rand(rng, ALNUM + "+/", 40)
        return "api_key", [f"$ mc alias set minio http://{host}:9000 {a} {b}", "Added `minio` successfully."], [b]
    if choice == 4:
        v = base64.b64encode(f"{user}:{plain_password(rng)}".encode()).decode()
        return "password", ["$ cat ~/.npmrc", "registry=https://npm.acme.io/", f"_auth={v}", "always-auth=true", f"email={user}@acme.io"], [v]
    if choice == 5:
        v = plain_password(rng)
        return "password", ["~/.authinfo", f"machine imap.gmail.com login {user}@gmail.com password {v} port 993",
                            f"machine smtp.gmail.com login {user}@gmail.com port 587"], [v]
    if choice == 6:
        v = plain_password(rng)
        return "password", ["# ~/.muttrc", f'set imap_user = "{user}@acme.io"', f'set imap_pass = "{v}"',
                            'set folder = "imaps://imap.acme.io:993"', 'set spoolfile = "+INBOX"'], [v]
    if choice == 7:
        v = plain_password(rng)
        return "password", rng.choice([["# ~/.msmtprc", "account acme", "host smtp.acme.io", "port 587", f"user {user}@acme.io", f"password {v}"],
                                       ["# ~/.fetchmailrc", f'poll mail.acme.io protocol IMAP user "{user}" password "{v}" ssl', "  keep"]]), [v]
    if choice == 8:
        v = plain_password(rng)
        return "password", [f"$ x11vnc -display :0 -passwd {v} -forever -shared", "The VNC desktop is:      nas:0", "PORT=5900"], [v]
    if choice == 9:
        v = plain_password(rng)
        return "password", [f"C:\\> schtasks /Create /TN NightlyBackup /TR C:\\tools\\backup.cmd /SC DAILY /ST 02:00 /RU ACME\\svc_backup /RP {v}",
                            'SUCCESS: The scheduled task "NightlyBackup" has successfully been created.'], [v]
    if choice == 10:
        v = plain_password(rng)
        return "password", [f'PS C:\\> sc.exe config AcmeSync obj= ".\\svc_sync" password= "{v}"', "[SC] ChangeServiceConfig SUCCESS"], [v]
    if choice == 11:
        keys = [base64.b64encode(rng.randbytes(33)).decode() for _ in range(3)]
        token = rand(rng, ALNUM, 24)
        return "api_key", ["$ vault operator init -key-shares=3 -key-threshold=2"] + \
            [f"Unseal Key {i + 1}: {k}" for i, k in enumerate(keys)] + ["", f"Initial Root Token: hvs.{token}"], keys + [token]
    if choice == 12:
        v = plain_password(rng)
        return "password", ["listen stats", "    bind :8404", "    stats enable", "    stats uri /haproxy?stats", f"    stats auth admin:{v}"], [v]
    if choice == 13:
        v = rand(rng, ALNUM + "*_=-+", 20)
        return "password", ["✅ Elasticsearch security features have been automatically configured!", "",
                            "ℹ️  Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):",
                            f"  {v}", "", "ℹ️  HTTP CA certificate SHA-256 fingerprint:", f"  {rand(rng, HEX, 64)}"], [v]
    if choice == 14:
        v = rand(rng, HEX, 32)
        return "password", ["*************************************************************", "",
                            "Jenkins initial setup is required. An admin user has been created and a password generated.",
                            "Please use the following password to proceed to installation:", "", v, "",
                            "This may also be found at: /var/lib/jenkins/secrets/initialAdminPassword"], [v]
    if choice == 15:
        v = rand(rng, ALNUM + ";:,.<>/?!#%&()_-+=", 12)
        return "password", [f"2026-11-27T09:14:02.123456Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: {v}",
                            "2026-11-27T09:14:05.000123Z 0 [System] [MY-013170] [Server] /usr/sbin/mysqld initializing of server has completed"], [v]
    if choice == 16:
        v = plain_password(rng)
        return "password", rng.choice([[f"$ neo4j-admin dbms set-initial-password {v}", "Changed password for user 'neo4j'."],
                                       [f"$ sudo grafana cli admin reset-admin-password {v}", "Admin password changed successfully ✔"]]), [v]
    if choice == 17:
        v = plain_password(rng)
        return "password", [f"$ pulumi config set --secret dbPassword {v}", "$ pulumi config", "KEY         VALUE",
                            "aws:region  eu-central-1", "dbPassword  [secret]"], [v]
    if choice == 18:
        v = rand(rng, HEX, 64)
        return "api_key", ["In [1]:", f"%env OPENROUTER_API_KEY=sk-or-v1-{v}", f"env: OPENROUTER_API_KEY=sk-or-v1-{v}"], [v]
    if choice == 19:
        v = "ATBB" + rand(rng, ALNUM, 24) + rand(rng, HEX.upper(), 8)
        return "api_key", ["Add app password", "Your new app password", "Make sure you copy your app password. You won't be able to see it again.",
                           v, "Close"], [v[4:]]
    if choice == 20:
        a, b = base64.b64encode(rng.randbytes(64)).decode(), base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["$ az storage account keys list -g shop -n shopstore", "[", "  {", '    "keyName": "key1",',
                           '    "permissions": "FULL",', f'    "value": "{a}"', "  },", "  {", '    "keyName": "key2",',
                           f'    "value": "{b}"', "  }", "]"], [a, b]
    if choice == 21:
        v = rand(rng, string.digits, 6)
        return "otp", [f"$ adb pair 192.168.1.23:{rng.randint(30000, 45000)}", f"Enter pairing code: {v}",
                       "Successfully paired to 192.168.1.23 [guid=adb-R58M41XYZ-qWk2Lm]"], [v]
    if choice == 22:
        v = rand(rng, string.digits, 6)
        return "otp", ["Messages", rng.choice([f"Your Apple Account code is: {v}. Don't share it with anyone.",
                                               f"G-{v} is your Google verification code.",
                                               f"PayPal: Your security code is {v}. Your code expires in 10 minutes. Please don't reply.",
                                               f"{v} is your Instagram code. Don't share it."])], [v]
    if choice == 23:
        v = rand(rng, lower36, 8)
        return "password", ["TeamViewer", "Allow Remote Control", f"Your ID     {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}",
                            f"Password    {v}"], [v]
    if choice == 24:
        v = plain_password(rng)
        return "password", ["shop=# CREATE USER MAPPING FOR shop SERVER legacy_db", f"shop-#   OPTIONS (user 'reporting', password '{v}');",
                            "CREATE USER MAPPING"], [v]
    if choice == 25:
        v = plain_password(rng)
        return "password", ["$ cat rootpw.ldif", "dn: olcDatabase={1}mdb,cn=config", "changetype: modify", "replace: olcRootPW",
                            f"olcRootPW: {v}"], [v]
    if choice == 26:
        v = rand(rng, ALNUM, 32)
        return "api_key", ['<gui enabled="true" tls="false" debugging="false">', "    <address>127.0.0.1:8384</address>",
                           f"    <user>{user}</user>", f"    <apikey>{v}</apikey>", "    <theme>default</theme>", "</gui>"], [v]
    if choice == 27:
        v = "tk_" + rand(rng, lower36, 29)
        return "api_key", [f"$ ntfy token add {user}", f"token {v} created for user {user}, never expires"], [v[3:]]
    if choice == 28:
        v = rand(rng, ALNUM + "-._", 40)
        return "api_key", [f"$ curl --oauth2-bearer {v} https://{host}/api/v2/reports", '{"reports": [], "next": null}'], [v]
    if choice == 29:
        v = plain_password(rng)
        return "password", [f"{rng.choice(['Maja', 'Omar', 'Kenji'])}  09:41", rng.choice([f"router login is admin/{v}", f"{v} ← that's the new root pw",
                                                                                         f"pass for the nas is {v}", f"try {v}, if not ask Omar",
                                                                                         f"vpn: {user} / {v}"])], [v]
    if choice == 30:
        a, b = rand(rng, lower36, 24), plain_password(rng)
        return "api_key", ["# docker-compose.yml", "services:", "  db:", "    image: postgres:16", "    environment:",
                           f"      - POSTGRES_PASSWORD={b}", "  tunnel:", "    image: cloudflare/cloudflared", f"    command: tunnel run --token {a}"], [a, b]
    a = rand(rng, ALNUM, 40)
    return "api_key", ["Settings › API", "Secret key", f"sk_live_{rand(rng, ALNUM, 4)}••••••••••••", "Roll key…",
                       "Webhook signing secret", f"whsec_{a}"], [a]


def twelfth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["$ xxd -l 64 firmware.bin"] + \
            [f"{i * 16:08x}: " + " ".join(rand(rng, HEX, 4) for _ in range(8)) + "  " + rand(rng, string.ascii_letters + ".", 16) for i in range(4)]
    if choice == 1:
        return ["    environment:", "      POSTGRES_PASSWORD_FILE: /run/secrets/db_password", "      MYSQL_ROOT_PASSWORD_FILE: /run/secrets/mysql_root",
                "secrets:", "  db_password:", "    file: ./secrets/db_password.txt"]
    if choice == 2:
        snow = lambda: str(rng.randint(10**17, 10**19 - 1))
        return [f"https://discord.com/channels/{snow()}/{snow()}/{snow()}", f"Message ID: {snow()}", "Copied to clipboard"]
    if choice == 3:
        return ["Room settings · Advanced", f"Internal room ID: !{rand(rng, string.ascii_letters, 18)}:matrix.org",
                f"Event ID: ${rand(rng, ALNUM + '-_', 43)}", "Room version: 10"]
    if choice == 4:
        return ["Add Device", "Device ID", "-".join(rand(rng, B32, 7) for _ in range(8)), "Device Name: laptop"]
    if choice == 5:
        return [f"https://www.youtube.com/watch?v={rand(rng, ALNUM + '-_', 11)}&list=PL{rand(rng, ALNUM + '-_', 32)}&index=3",
                f"{rng.randint(2, 900)}K views · 3 years ago"]
    if choice == 6:
        return [f"$ sudo passwd -S lena", f"lena P 2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d} 0 99999 7 -1",
                "$ sudo chage -l lena | head -2", "Last password change                : Nov 01, 2026", "Password expires                    : never"]
    if choice == 7:
        return ["Your password must contain:", "• at least 12 characters", "• one of A-Z, a-z and 0-9", "• one of !@#$%^&*()_+-=",
                "Not your name, e-mail or birthday."]
    if choice == 8:
        return ["Name     Value                          Domain", f"_ga      GA1.1.{rng.randint(10**8, 10**9)}.{rng.randint(10**9, 2 * 10**9)}   .acme.io",
                f"_gid     GA1.2.{rng.randint(10**8, 10**9)}.{rng.randint(10**9, 2 * 10**9)}   .acme.io", "theme    dark                           shop.acme.io"]
    if choice == 9:
        return ["x-cache: Miss from cloudfront", f"x-amz-cf-pop: FRA56-P{rng.randint(1, 9)}",
                f"x-amz-cf-id: {rand(rng, ALNUM + '-_', 54)}==", f"via: 1.1 {rand(rng, HEX, 32)}.cloudfront.net (CloudFront)"]
    if choice == 10:
        return ["Friends", f"Your friend code: SW-{rand(rng, string.digits, 4)}-{rand(rng, string.digits, 4)}-{rand(rng, string.digits, 4)}",
                f"Steam friend code: {rng.randint(10**8, 10**9)}"]
    if choice == 11:
        return ['export DB_PASSWORD="$(pass show acme/db)"', "export GITHUB_TOKEN=$(gh auth token)",
                'export STRIPE_KEY="$(op read op://Prod/Stripe/secret-key)"']
    if choice == 12:
        return [f"$ sudo zerotier-cli join {rand(rng, HEX, 16)}", "200 join OK", "$ sudo zerotier-cli info",
                f"200 info {rand(rng, HEX, 10)} 1.14.0 ONLINE"]
    if choice == 13:
        return ["AnyDesk", "This Desk", f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}",
                "Set password for unattended access…", "Your desk is ready."]
    if choice == 14:
        return ["$ openssl x509 -pubkey -in /etc/kubernetes/pki/ca.crt | openssl rsa -pubin -outform der 2>/dev/null | \\",
                "    openssl dgst -sha256 -hex | sed 's/^.* //'", rand(rng, HEX, 64)]
    return ["Something went wrong.", f"Error ID: {rand(rng, HEX, 32)}", f"Trace: {uuid.UUID(bytes=rng.randbytes(16))}",
            "Please quote this ID when contacting support."]


def thirteenth_secret_case(rng):
    """The thirteenth pool (`--pool thirteenth`): written after the twelfth pool had been through one
    round, before any rule was run on it, from places none of the twelve earlier pools has: Debian
    preseed and Kickstart root passwords, PgBouncer's `userlist.txt`, Tor's `ADD_ONION` reply, a Consul
    token's `SecretID`, MongoDB's `createUser`, `redis-cli`'s `AUTH`, keepalived's `auth_pass`, routers'
    BGP and OSPF keys, `pihole setpassword`, cloud-init's `chpasswd` list, `gcloud secrets versions
    access`, a `git diff` that removes a secret, a Rails console, passwords given to hash functions, Ruby's
    `:password =>`, Java's `-D…Password=`, `wmic /password:`, Nagios' `$USER3$`, Dovecot's `{PLAIN}`,
    Postfix's `sasl_passwd`, `steamcmd +login`, stream keys, webhook URLs with the secret in the path,
    Element's Security Key, 1Password's Secret Key, `firebase login:ci`, an IP camera's query, chat lines
    with new verbs, spaced and lettered codes, a Solana keypair, a Plex token and SQL `INSERT` rows."""
    user, host = login_parts(rng)
    lower36 = string.ascii_lowercase + string.digits
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng)
        return "password", rng.choice([["# preseed.cfg", "d-i passwd/root-login boolean true", f"d-i passwd/root-password password {v}",
                                        f"d-i passwd/root-password-again password {v}", f"d-i passwd/username string {user}"],
                                       ["# ks.cfg", "lang en_US.UTF-8", "keyboard us", f"rootpw --plaintext {v}", "timezone Europe/Oslo --utc"]]), [v]
    if choice == 1:
        v = plain_password(rng).replace("%", "")
        return "password", ["$ sudo cat /etc/pgbouncer/userlist.txt", f'"{user}" "{v}"', '"stats" "SCRAM-SHA-256$4096:' + rand(rng, ALNUM, 12) + '"'], [v]
    if choice == 2:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["ADD_ONION NEW:ED25519-V3 Port=80,127.0.0.1:8080", f"250-ServiceID={rand(rng, 'abcdefghijklmnopqrstuvwxyz234567', 56)}",
                           f"250-PrivateKey=ED25519-V3:{v}", "250 OK"], [v]
    if choice == 3:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ['$ consul acl token create -description "ci deploy" -policy-name deploy',
                           f"AccessorID:       {uuid.UUID(bytes=rng.randbytes(16))}", f"SecretID:         {v}",
                           "Description:      ci deploy", "Local:            false"], [v]
    if choice == 4:
        v = plain_password(rng)
        return "password", ["test> use admin", f'admin> db.createUser({{ user: "{user}", pwd: "{v}", roles: ["readWrite"] }})', "{ ok: 1 }"], [v]
    if choice == 5:
        v = plain_password(rng)
        return "password", [f"$ redis-cli -h {host}", f"{host}:6379> AUTH {rng.choice(['default ', user + ' ', ''])}{v}", "OK",
                            f"{host}:6379> DBSIZE", f"(integer) {rng.randint(10, 90000)}"], [v]
    if choice == 6:
        v = rand(rng, ALNUM, 8)
        return "password", ["vrrp_instance VI_1 {", "    state MASTER", "    virtual_router_id 51", "    authentication {",
                            "        auth_type PASS", f"        auth_pass {v}", "    }", "}"], [v]
    if choice == 7:
        v = plain_password(rng)
        return "password", rng.choice([["router bgp 65001", f" neighbor 10.0.0.2 remote-as 65002", f" neighbor 10.0.0.2 password {v}"],
                                       ["interface GigabitEthernet0/1", " ip ospf authentication message-digest",
                                        f" ip ospf message-digest-key 1 md5 {v}"]]), [v]
    if choice == 8:
        v = plain_password(rng)
        return "password", [rng.choice([f"$ pihole setpassword {v}", f"$ sudo pihole -a -p {v}"]), "  [✓] New password set"], [v]
    if choice == 9:
        a, b = plain_password(rng), plain_password(rng)
        return "password", ["#cloud-config", "ssh_pwauth: true", "chpasswd:", "  list: |", f"    root:{a}", f"    {user}:{b}", "  expire: false"], [a, b]
    if choice == 10:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ gcloud secrets versions access latest --secret=stripe-api-key", v, "$ "], [v]
    if choice == 11:
        name = rng.choice(["SMTP_PASS", "STRIPE_SECRET", "DB_PASSWORD", "SENTRY_AUTH"])
        v = plain_password(rng) if "PASS" in name else rand(rng, ALNUM, 32)
        return "password" if "PASS" in name else "api_key", ["$ git diff HEAD~1 -- .env", "diff --git a/.env b/.env", "--- a/.env", "+++ b/.env",
                                                             "@@ -3,4 +3,4 @@", " APP_ENV=production", f"-{name}={v}", f"+{name}=${{{name}}}"], [v]
    if choice == 12:
        v = plain_password(rng)
        return "password", ["$ bin/rails console", f'irb(main):001> User.create!(email: "{user}@acme.io", password: "{v}", password_confirmation: "{v}")',
                            f"=> #<User id: {rng.randint(2, 900)}, email: \"{user}@acme.io\">"], [v]
    if choice == 13:
        v = plain_password(rng)
        return "password", [rng.choice([f">>> Hash::make('{v}')", f"php > echo password_hash('{v}', PASSWORD_DEFAULT);",
                                        f">>> make_password('{v}')", f">>> bcrypt.hashpw(b'{v}', bcrypt.gensalt())"]),
                            "=> \"$2y$10$" + rand(rng, ALNUM + "./", 53) + "\""], [v]
    if choice == 14:
        v = plain_password(rng)
        return "password", ["ActionMailer::Base.smtp_settings = {", "  :address => 'smtp.acme.io',", "  :port => 587,",
                            f"  :user_name => '{user}@acme.io',", f"  :password => '{v}',", "  :authentication => :plain", "}"], [v]
    if choice == 15:
        v = plain_password(rng)
        return "password", [rng.choice([f"$ java -Djavax.net.ssl.keyStorePassword={v} -jar gateway.jar",
                                        f"$ JAVA_OPTS=\"-Dspring.datasource.password={v}\" ./bin/start.sh"]), "Started GatewayApplication in 4.2 seconds"], [v]
    if choice == 16:
        v = plain_password(rng)
        return "password", [f"C:\\> wmic /node:{host} /user:ACME\\{user} /password:{v} os get caption", "Caption",
                            "Microsoft Windows Server 2022 Standard"], [v]
    if choice == 17:
        v = plain_password(rng)
        return "password", ["# /usr/local/nagios/etc/resource.cfg", "$USER1$=/usr/local/nagios/libexec", "# $USER3$: MySQL monitoring account",
                            f"$USER3$={v}"], [v]
    if choice == 18:
        v = plain_password(rng)
        return "password", ["# /etc/dovecot/users", f"{user}:{{PLAIN}}{v}:1000:1000::/home/{user}"], [v]
    if choice == 19:
        v = plain_password(rng)
        return "password", ["$ sudo cat /etc/postfix/sasl_passwd", f"[smtp.gmail.com]:587 {user}@gmail.com:{v}",
                            "$ sudo postmap /etc/postfix/sasl_passwd"], [v]
    if choice == 20:
        v = plain_password(rng)
        return "password", [f"$ steamcmd +login {user} {v} +app_update 896660 validate +quit", "Logging in user '" + user + "' to Steam Public...OK"], [v]
    if choice == 21:
        kind = rng.randrange(3)
        if kind == 0:
            v = f"live_{rng.randint(10**8, 10**9)}_{rand(rng, ALNUM, 30)}"
            return "api_key", ["Settings › Stream", "Service: Twitch", "Server: Auto (Recommended)", f"Stream Key: {v}", "Show   Copy"], [v[5:]]
        v = "-".join(rand(rng, lower36, 4) for _ in range(5))
        if kind == 1:
            return "api_key", ["Stream settings", "Stream key (paste in encoder)", v, "Stream URL", "rtmp://a.rtmp.youtube.com/live2"], [v]
        return "api_key", ["$ ffmpeg -re -i talk.mp4 -c copy -f flv \\", f"    rtmp://a.rtmp.youtube.com/live2/{v}"], [v]
    if choice == 22:
        kind = rng.randrange(3)
        if kind == 0:
            v = rand(rng, ALNUM + "-_", 22)
            return "api_key", [f'$ curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/{v}', "Congratulations! You've fired the door_open event"], [v]
        if kind == 1:
            v = rand(rng, HEX, 32)
            return "api_key", ["Incoming Webhook", "Copy the URL below to send data to this channel:",
                               f"https://acme.webhook.office.com/webhookb2/{uuid.UUID(bytes=rng.randbytes(16))}/IncomingWebhook/{v}/{uuid.UUID(bytes=rng.randbytes(16))}"], [v]
        v = rand(rng, ALNUM + "-_", 35)
        return "api_key", [f'$ curl "https://api.telegram.org/bot{rng.randint(10**9, 8 * 10**9)}:AA{v}/sendMessage?chat_id=-100{rng.randint(10**9, 2 * 10**9)}&text=deployed"',
                           '{"ok":true,"result":{"message_id":' + str(rng.randint(10, 9000)) + "}}"], [v]
    if choice == 23:
        v = "Es" + rand(rng, B58, 46)
        return "api_key", ["Save your Security Key", "Store your Security Key somewhere safe, like a password manager or a safe.",
                           " ".join(v[i:i + 4] for i in range(0, 48, 4)), "Copy   Download"], [v]
    if choice == 24:
        alphabet = "23456789ABCDEFGHJKLMNPQRSTVWXYZ"
        v = "A3-" + "-".join(rand(rng, alphabet, n) for n in (6, 6, 5, 5, 5, 5))
        return "api_key", ["Emergency Kit", f"Sign-in address   https://my.1password.com", f"Email address      {user}@acme.io", f"Secret Key         {v}"], [v[3:]]
    if choice == 25:
        v = "1//0" + rand(rng, ALNUM + "-_", 99)
        return "api_key", ["$ firebase login:ci", "✔  Success! Use this token to login on a CI server:", "", v[:52], v[52:], "",
                           'Example: firebase deploy --token "$FIREBASE_TOKEN"'], [v[:52], v[52:]]
    if choice == 26:
        v = plain_password(rng).replace("&", "").replace("#", "").replace("+", "").replace("%", "").replace("?", "")
        return "password", [f"http://{host}:88/cgi-bin/CGIProxy.fcgi?cmd=snapPicture2&usr=admin&pwd={v}", "200 OK · image/jpeg · 182 KB"], [v]
    if choice == 27:
        v = plain_password(rng)
        return "password", [f"{rng.choice(['Maja', 'Omar', 'Kenji'])}  18:02", rng.choice([f"changed the wifi password to {v}",
                                                                                         f"I reset it, it's now {v}", f"new one for the shared account: {v}",
                                                                                         f"the key for Nordlys is {v}", f"use {v} for the admin panel"])], [v]
    if choice == 28:
        v = rand(rng, string.digits, 6)
        if rng.random() < 0.5:
            return "otp", ["Confirm your email address", "Enter this code in the open browser window:", " ".join(v), "This code expires in 10 minutes."], [v]
        v = rand(rng, string.ascii_uppercase + string.digits, 3) + "-" + rand(rng, string.ascii_uppercase + string.digits, 3)
        return "otp", ["Inbox", f"Slack confirmation code: {v}", "Your confirmation code is below — enter it in your open browser window."], [v.replace("-", "")]
    if choice == 29:
        nums = [str(rng.randrange(256)) for _ in range(64)]
        return "api_key", ["$ cat ~/.config/solana/id.json", "[" + ",".join(nums[:32]) + ",", ",".join(nums[32:]) + "]"], [",".join(nums[:8]), ",".join(nums[40:48])]
    if choice == 30:
        v = rand(rng, ALNUM + "-_", 20)
        return "api_key", [f"http://{host}:32400/library/sections/1/all?X-Plex-Token={v}", "<MediaContainer size=\"214\" allowSync=\"1\">"], [v]
    v = plain_password(rng).replace("'", "")
    return "password", ["-- seed.sql", f"INSERT INTO users (email, password, role) VALUES ('{user}@acme.io', '{v}', 'admin');", "INSERT 0 1"], [v]


def thirteenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["Safety number", "Verify the security of your end-to-end encryption with Omar."] + \
            [" ".join(rand(rng, string.digits, 5) for _ in range(4)) for _ in range(3)] + ["Mark as verified"]
    if choice == 1:
        words = ["alike", "grub", "ivory", "cabin", "dusk", "ember", "fable", "glint", "harbor", "jolly", "kettle", "lumen", "maple"]
        return ["Account settings", "Your account's fingerprint phrase:", "-".join(rng.sample(words, 5)), "Learn more"]
    if choice == 2:
        return rng.choice([["$ cat /etc/nginx/.htpasswd", f"lena:$apr1${rand(rng, ALNUM, 8)}${rand(rng, ALNUM + './', 22)}",
                            f"ops:$2y$05${rand(rng, ALNUM + './', 53)}"],
                           ["# ks.cfg", f"rootpw --iscrypted $6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}", "reboot"]])
    if choice == 3:
        return ["$ sudo cat /etc/pgbouncer/userlist.txt",
                f'"app" "SCRAM-SHA-256$4096:{base64.b64encode(rng.randbytes(16)).decode()}${base64.b64encode(rng.randbytes(32)).decode()}:{base64.b64encode(rng.randbytes(32)).decode()}"',
                f'"stats" "md5{rand(rng, HEX, 32)}"']
    if choice == 4:
        return [f"Message-ID: <CA+{rand(rng, ALNUM + '=_-', 40)}@mail.gmail.com>",
                f"DKIM-Signature: v=1; a=rsa-sha256; d=acme.io; s=s1; bh={base64.b64encode(rng.randbytes(32)).decode()};",
                f"Content-Type: multipart/alternative; boundary=\"000000000000{rand(rng, HEX, 16)}\""]
    if choice == 5:
        return ["HTTP/2 200", f"content-security-policy: script-src 'self' 'nonce-{base64.b64encode(rng.randbytes(16)).decode()}'",
                f'etag: "{rand(rng, HEX, 40)}"', "cache-control: no-cache"]
    if choice == 6:
        return ["$ head -3 ~/.ssh/known_hosts"] + [f"|1|{base64.b64encode(rng.randbytes(20)).decode()}|{base64.b64encode(rng.randbytes(20)).decode()} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rand(rng, ALNUM + '+/', 43)}"[:118]
                                                   for _ in range(3)]
    if choice == 7:
        return ["Lightning invoice", f"lnbc{rng.randint(1, 900)}u1p{rand(rng, BECH32, 60)}", rand(rng, BECH32, 60), f"Amount: {rng.randint(1, 90)} 000 sats"]
    if choice == 8:
        return ["Extensions", "uBlock Origin  1.60.0", f"ID: {rand(rng, 'abcdefghijklmnop', 32)}", "Bitwarden  2026.10.1", f"ID: {rand(rng, 'abcdefghijklmnop', 32)}"]
    if choice == 9:
        return ["INSTANCEID             IMAGEID                 STATE    VPC",
                f"i-0{rand(rng, HEX, 16)}    ami-0{rand(rng, HEX, 16)}   running  vpc-0{rand(rng, HEX, 16)}",
                f"SecurityGroups: sg-0{rand(rng, HEX, 16)}  VolumeId: vol-0{rand(rng, HEX, 16)}"]
    if choice == 10:
        return ["$ vault status", "Key             Value", "Seal Type       shamir", "Initialized     true", "Sealed          false",
                "Total Shares    5", "Threshold       3", f"Cluster Name    vault-cluster-{rand(rng, HEX, 8)}", f"Cluster ID      {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 11:
        return ["$ sudo smartctl -i /dev/sda | grep -E 'Model|Serial|WWN'", "Device Model:     WDC WD40EFRX-68N32N0",
                f"Serial Number:    WD-WCC{rand(rng, string.ascii_uppercase + string.digits, 9)}", f"LU WWN Device Id: 5 0014ee {rand(rng, HEX, 9)}"]
    if choice == 12:
        return ["Your trip to Oslo", f"Booking reference: {rand(rng, string.ascii_uppercase + string.digits, 6)}",
                f"E-ticket number: {rng.randint(100, 999)}-{rng.randint(10**9, 10**10 - 1)}", f"Seat {rng.randint(1, 40)}{rng.choice('ACDF')} · Gate B{rng.randint(1, 30)}"]
    if choice == 13:
        return [f"https://www.google.com/maps/place/?q=place_id:ChIJ{rand(rng, ALNUM + '-_', 23)}", f"Plus code: 9FFW+{rand(rng, '23456789CFGHJMPQRVWX', 2)} Oslo"]
    if choice == 14:
        return ["$ ls ~/Pictures/inbox"] + [f"{rand(rng, HEX, 40)}.jpg" for _ in range(2)] + \
            [f"IMG_2026{rng.randint(1, 11):02d}{rng.randint(1, 28):02d}_{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}.jpg"]
    return ["$ tailscale status --json | jq '.Self | {PublicKey, TailscaleIPs}'", "{",
            f'  "PublicKey": "nodekey:{rand(rng, HEX, 64)}",', f'  "TailscaleIPs": ["100.{rng.randint(64, 127)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"]', "}"]


def fourteenth_secret_case(rng):
    """The fourteenth pool (`--pool fourteenth`): written after the thirteenth pool had been through one
    round, before any rule was run on it, from places none of the thirteen earlier pools has: mail and
    file-transfer sessions typed by hand (IMAP `LOGIN`, POP3 and FTP `PASS`, SMTP `AUTH PLAIN`), SQL
    Server's `CREATE LOGIN`, a here-string fed to `sudo -S`, WordPress application passwords, Apple
    app-specific passwords, a TLS key log, OpenWrt's `uci`, MikroTik's pre-shared key, a Salesforce
    session, a Proxmox API token, gift-card codes, parcel pickup codes, MEGA and PrivateBin links whose
    fragment is the key, `Proxy-Authorization`, an Azure DevOps token, Backblaze B2 keys, PlanetScale
    passwords, extended private keys, a Monero spend key, `git config sendemail.smtpPass`, Ansible's
    `-e`, `net user`, passwords given to `openssl passwd` and `mkpasswd`, phone and voicemail PINs,
    `creds:` in chat, a FileVault recovery key, labels in Greek, Hebrew, Thai and Hindi, a password
    field's `value=`, messaging servers' `register` commands and newer providers' tokens."""
    user, host = login_parts(rng)
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng).replace("%", "")
        kind = rng.randrange(3)
        if kind == 0:
            return "password", [f"$ openssl s_client -quiet -connect {host}:993", "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] Dovecot ready.",
                                f"a1 LOGIN {user} {v}", "a1 OK Logged in"], [v]
        if kind == 1:
            return "password", [f"$ telnet {host} 110", "+OK POP3 ready", f"USER {user}", "+OK", f"PASS {v}", "+OK Logged in."], [v]
        b = base64.b64encode(f"\0{user}@acme.io\0{v}".encode()).decode()
        return "password", [f"$ openssl s_client -starttls smtp -connect {host}:587 -quiet", "250 SMTPUTF8", f"AUTH PLAIN {b}",
                            "235 2.7.0 Authentication successful"], [b]
    if choice == 1:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"CREATE LOGIN app_{user} WITH PASSWORD = '{v}', CHECK_POLICY = OFF;",
                                        f"ALTER LOGIN sa WITH PASSWORD = N'{v}';"]), "GO", "Commands completed successfully."], [v]
    if choice == 2:
        v = plain_password(rng)
        return "password", [rng.choice([f"$ sudo -S apt-get update <<< '{v}'", f"$ sudo cryptsetup open /dev/sdb1 vault <<< \"{v}\"",
                                        f"$ sudo -S -u postgres psql <<< '{v}'"]), "[sudo] password for " + user + ": ", "Hit:1 http://deb.debian.org/debian bookworm InRelease"], [v]
    if choice == 3:
        v = " ".join(rand(rng, ALNUM, 4) for _ in range(6))
        return "password", ["Application Passwords", f"Your new password for “{rng.choice(['CI deploy', 'Zapier', 'iOS app'])}” is:", v,
                            "Be sure to save this in a safe location. You will not be able to retrieve it."], [v]
    if choice == 4:
        v = "-".join(rand(rng, string.ascii_lowercase, 4) for _ in range(4))
        return "password", rng.choice([["Sign-In and Security", "App-Specific Passwords", "Use this password in the app:", v, "Done"],
                                       [f'$ xcrun altool --upload-app -f Build.ipa -u {user}@acme.io -p "{v}"', "No errors uploading 'Build.ipa'"]]), [v]
    if choice == 5:
        v = rand(rng, HEX, 96)
        return "api_key", ["$ head -2 $SSLKEYLOGFILE", f"CLIENT_RANDOM {rand(rng, HEX, 64)} {v}",
                           f"CLIENT_HANDSHAKE_TRAFFIC_SECRET {rand(rng, HEX, 64)} {rand(rng, HEX, 64)}"], [v]
    if choice == 6:
        v = plain_password(rng).replace("'", "")
        return "password", rng.choice([["root@OpenWrt:~# uci show wireless | grep key", f"wireless.default_radio0.key='{v}'",
                                        "wireless.default_radio0.encryption='psk2'"],
                                       [f"root@OpenWrt:~# uci set network.wan.password='{v}'", "root@OpenWrt:~# uci commit network"]]), [v]
    if choice == 7:
        v = plain_password(rng).replace("\"", "")
        return "password", [rng.choice([f"[admin@MikroTik] > /interface wireless security-profiles set [ find default=yes ] wpa2-pre-shared-key={v}",
                                        f"[admin@MikroTik] > /interface wifi security set sec1 passphrase={v}"]), "[admin@MikroTik] > "], [v]
    if choice == 8:
        v = "00D" + rand(rng, ALNUM, 12) + "!" + rand(rng, ALNUM + "._", 96)
        return "api_key", ["$ sf org display --target-org prod", "=== Org Description", "KEY              VALUE",
                           f"Access Token     {v[:60]}", f"                 {v[60:]}", f"Instance Url     https://acme.my.salesforce.com"], [v[:60], v[60:]]
    if choice == 9:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ curl -k -H 'Authorization: PVEAPIToken=root@pam!monitoring={v}' \\", f"    https://{host}:8006/api2/json/nodes"], [v]
    if choice == 10:
        up = string.ascii_uppercase + string.digits
        kind = rng.randrange(3)
        if kind == 0:
            v = f"{rand(rng, up, 4)}-{rand(rng, up, 6)}-{rand(rng, up, 4)}"
            return "api_key", ["Amazon.com Gift Card", f"${rng.choice([25, 50, 100])}.00", f"Claim code: {v}", "Redeem at amazon.com/redeem"], [v.replace("-", "")]
        if kind == 1:
            v = "-".join(rand(rng, up, 5) for _ in range(3))
            return "api_key", ["Steam Wallet Code", "Your code:", v, "Redeem it at store.steampowered.com/account/redeemwalletcode"], [v.replace("-", "")]
        v = " ".join(rand(rng, up, 4) for _ in range(5))
        return "api_key", ["Google Play gift code", v, f"Value: €{rng.choice([15, 25, 50])}"], [v]
    if choice == 11:
        v = rand(rng, string.digits, rng.choice([4, 6]))
        return "otp", rng.choice([[f"InPost  {rng.randint(8, 20)}:{rng.randint(10, 59)}", f"Your parcel is waiting at locker KRA{rng.randint(10, 99)}M. Pickup code: {v}. Pick it up within 48 h."],
                                  ["Your order is ready for collection", f"Collection code   {v}", "Bring a photo ID."]]), [v]
    if choice == 12:
        if rng.random() < 0.5:
            v = rand(rng, ALNUM + "-_", 43)
            return "api_key", ["Share link", f"https://mega.nz/file/{rand(rng, ALNUM, 8)}#{v}", "Copy link   Copy key"], [v]
        v = rand(rng, B58, 44)
        return "api_key", ["Your paste is https://paste.acme.io/?" + rand(rng, HEX, 16) + "#" + v, "(Hit Ctrl+C to copy)"], [v]
    if choice == 13:
        v = plain_password(rng)
        b = base64.b64encode(f"{user}:{v}".encode()).decode()
        return "password", [f"$ curl -v -x http://proxy.acme.io:3128 https://example.org", "> CONNECT example.org:443 HTTP/1.1",
                            f"> Proxy-Authorization: Basic {b}", "< HTTP/1.1 200 Connection established"], [b]
    if choice == 14:
        v = rand(rng, "abcdefghijklmnopqrstuvwxyz234567", 52)
        return "api_key", ["New personal access token", "Success!", "You have successfully added a new personal access token. Copy the token now!",
                           v, "Warning - Make sure you copy the above token now. We don't store it and you will not be able to see it again."], [v]
    if choice == 15:
        v = "K00" + rand(rng, "0123456789", 1) + rand(rng, ALNUM, 27)
        key_id = "00" + rand(rng, HEX, 23)
        return "api_key", rng.choice([["[b2]", "type = b2", f"account = {key_id}", f"key = {v}", "hard_delete = true"],
                                      [f"$ b2 account authorize {key_id} {v}", "Using https://api.backblazeb2.com"]]), [v]
    if choice == 16:
        v = "pscale_pw_" + rand(rng, ALNUM + "_-", 43)
        return "api_key", ["$ pscale password create shop main ci-deploy", "  NAME        USERNAME        ACCESS HOST URL                 PLAIN TEXT",
                           f"  ci-deploy   {rand(rng, string.ascii_lowercase + string.digits, 12)}    aws.connect.psdb.cloud   {v}"], [v]
    if choice == 17:
        prefix = rng.choice(["xprv9s21ZrQH143K", "tprv8ZgxMBicQKsP"])
        v = prefix + rand(rng, B58, 95)
        return "api_key", rng.choice([["Wallet information", "Master private key:", v[:56], v[56:]],
                                      ['$ bitcoin-cli -rpcwallet=cold listdescriptors true', '  {', f'    "desc": "wpkh({v}/84h/1h/0h/0/*)#{rand(rng, "qpzry9x8gf2tvdw0", 8)}",',
                                       '    "active": true,']]), [v[:56], v[56:]]
    if choice == 18:
        v, pub = rand(rng, HEX, 64), rand(rng, HEX, 64)
        return "api_key", [f"[wallet 4{rand(rng, B58, 5)}]: spendkey", f"secret: {v}", f"public: {pub}"], [v]
    if choice == 19:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ git config --global sendemail.smtpServer smtp.gmail.com", f"$ git config --global sendemail.smtpUser {user}@gmail.com",
                            f"$ git config --global sendemail.smtpPass '{v}'"], [v]
    if choice == 20:
        v = plain_password(rng).replace("'", "").replace('"', "")
        return "password", [rng.choice([f'$ ansible-playbook site.yml -e "ansible_become_pass={v}"',
                                        f"$ ansible-playbook -i hosts deploy.yml --extra-vars 'ansible_user={user} ansible_password={v}'"]),
                            "PLAY [all] *********************************************************"], [v]
    if choice == 21:
        v = plain_password(rng).replace("/", "")
        return "password", [rng.choice([f"C:\\> net user {user} {v} /add", f"C:\\> net user Administrator {v}"]), "The command completed successfully."], [v]
    if choice == 22:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ sudo useradd -m -p \"$(openssl passwd -6 '{v}')\" {user}", f"$ mkpasswd -m sha-512 '{v}'",
                                        f"$ openssl passwd -1 '{v}'"]), f"$6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}"[:100]], [v]
    if choice == 23:
        v = rand(rng, string.digits, rng.choice([4, 6, 8]))
        return "otp", rng.choice([["Voicemail", f"Your new voicemail PIN is {v}.", "Dial 123 to listen to your messages."],
                                  ["Notes", "Phone", f"unlock code {v}", "SIM PIN is on the card"],
                                  ["Settings › Security", f"Restrictions passcode: {v}"]]), [v]
    if choice == 24:
        v = plain_password(rng)
        return "password", [f"{rng.choice(['Maja', 'Omar', 'Kenji'])}  09:14", rng.choice([f"creds for staging: {user} / {v}", f"staging creds {user}/{v}",
                                                                                         f"login is {user}, pw {v}"])], [v]
    if choice == 25:
        up = string.ascii_uppercase + string.digits
        v = "-".join(rand(rng, up, 4) for _ in range(6))
        return "api_key", rng.choice([["$ sudo fdesetup changerecovery -personal", "Enter the user name:" + user, f"New personal recovery key = '{v}'"],
                                      ["FileVault", "Your recovery key is:", v, "Store it somewhere other than this Mac."]]), [v.replace("-", "")]
    if choice == 26:
        v = plain_password(rng)
        label = rng.choice(["Κωδικός πρόσβασης", "סיסמה", "รหัสผ่าน", "पासवर्ड"])
        return "password", [rng.choice(["Wi-Fi", "Router", "Admin"]), f"{label}: {v}"], [v]
    if choice == 27:
        v = plain_password(rng).replace('"', "").replace("&", "").replace("<", "")
        return "password", ['<form method="post" action="/login">', f'  <input type="text" name="user" value="{user}">',
                            f'  <input type="password" name="pwd" value="{v}">', "</form>"], [v]
    if choice == 28:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ sudo ejabberdctl register {user} chat.acme.io {v}", f"$ sudo prosodyctl register {user} chat.acme.io {v}",
                                        f"$ sudo rabbitmqctl add_user {user} {v}", f"$ sudo mosquitto_passwd -b /etc/mosquitto/passwd {user} {v}"]),
                            rng.choice(["User " + user + "@chat.acme.io successfully registered", f'Adding user "{user}" ...', ""])], [v]
    if choice == 29:
        kind = rng.randrange(5)
        v = [("sq0atp-" + rand(rng, ALNUM + "-_", 22)), ("nvapi-" + rand(rng, ALNUM + "-_", 64)), ("tvly-" + rand(rng, ALNUM, 32)),
             ("phx_" + rand(rng, ALNUM, 43)), ("gldt-" + rand(rng, ALNUM + "-_", 20))][kind]
        name = ["SQUARE_ACCESS_TOKEN", "NVIDIA_API_KEY", "TAVILY_API_KEY", "POSTHOG_PERSONAL_API_KEY", "deploy token"][kind]
        if kind == 4:
            return "api_key", ["Deploy tokens", "Your new deploy token", f"username: gitlab+deploy-token-{rng.randint(10, 999)}", v], [v]
        return "api_key", [rng.choice([f"client = Client(api_key=\"{v}\")", f"{name.lower()}: {v}", f"docker run --rm -e {name} {v} app"])], [v]
    if choice == 30:
        v = plain_password(rng)
        return "password", ["Wi-Fi", rng.choice(["Guest network", "Home"]), f"Network key   {v}", "Show characters ☑"], [v]
    v = rand(rng, ALNUM, 40)
    return "api_key", [f"https://hooks.zapier.com/hooks/catch/{rng.randint(10**6, 10**7)}/{rand(rng, string.ascii_lowercase + string.digits, 6)}/",
                       f"Secret: {v}", "Send a test"], [v]


def fourteenth_negative_case(rng):
    choice = rng.randrange(16)
    ip = f"203.0.113.{rng.randint(2, 250)}"
    if choice == 0:
        return ["$ sudo journalctl -u ssh --since today | tail -3",
                f"Nov 27 08:1{rng.randint(0, 9)}:02 web sshd[{rng.randint(1000, 99999)}]: Failed password for invalid user admin from {ip} port {rng.randint(30000, 65000)} ssh2",
                f"Nov 27 08:1{rng.randint(0, 9)}:05 web sshd[{rng.randint(1000, 99999)}]: Accepted publickey for deploy from {ip} port {rng.randint(30000, 65000)} ssh2: ED25519 SHA256:{rand(rng, ALNUM + '+/', 43)}"]
    if choice == 1:
        return ["# /etc/ssh/sshd_config", "PasswordAuthentication no", "PermitEmptyPasswords no", "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes", "AuthorizedKeysFile .ssh/authorized_keys"]
    if choice == 2:
        return ["mysql> SHOW VARIABLES LIKE 'validate_password%';", "| validate_password.length               | 12     |",
                "| validate_password.mixed_case_count     | 1      |", "| validate_password.policy               | MEDIUM |",
                "| default_authentication_plugin          | caching_sha2_password |"]
    if choice == 3:
        return ["labels:", "  - traefik.enable=true",
                f"  - traefik.http.middlewares.auth.basicauth.users=admin:$$apr1$${rand(rng, ALNUM, 8)}$${rand(rng, ALNUM + './', 22)}",
                "  - traefik.http.routers.dash.middlewares=auth"]
    if choice == 4:
        return ["hostname core-sw1", f"enable secret 9 $9${rand(rng, ALNUM + './', 14)}${rand(rng, ALNUM + './', 43)}",
                f"username admin privilege 15 secret 8 $8${rand(rng, ALNUM + './', 14)}${rand(rng, ALNUM + './', 43)}", "service password-encryption"]
    if choice == 5:
        account = rand(rng, string.digits, 12)
        return ["$ aws sts get-caller-identity", "{", f'    "UserId": "AIDA{rand(rng, string.ascii_uppercase + "234567", 17)}",',
                f'    "Account": "{account}",', f'    "Arn": "arn:aws:iam::{account}:user/ci-deploy"', "}"]
    if choice == 6:
        return ["apiVersion: v1", "clusters:", "- cluster:",
                f"    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSU{rand(rng, ALNUM + '+/', 60)}",
                f"    server: https://10.0.{rng.randint(0, 9)}.{rng.randint(2, 250)}:6443", "  name: prod"]
    if choice == 7:
        return ["Wallet information", "Master public key:", "zpub6" + rand(rng, B58, 50), rand(rng, B58, 56), "Script type: p2wpkh"]
    if choice == 8:
        return ["$ git cat-file -p HEAD", f"tree {rand(rng, HEX, 40)}", f"parent {rand(rng, HEX, 40)}", "author Lena Berg <lena@acme.io> 1764230400 +0100",
                "gpgsig -----BEGIN PGP SIGNATURE-----", " ", f" iHUEABYKAB0WIQ{rand(rng, ALNUM + '+/', 50)}", f" {rand(rng, ALNUM + '+/', 64)}",
                f" ={rand(rng, ALNUM + '+/', 4)}", " -----END PGP SIGNATURE-----"]
    if choice == 9:
        return ["$ grep -rn password src/ | head -3", 'src/auth/views.py:42:    password = request.form["password"]',
                "src/settings.py:88:PASSWORD_HASHERS = [", "src/auth/forms.py:17:    password2 = forms.CharField(widget=forms.PasswordInput)"]
    if choice == 10:
        return ["$ aws iam get-account-password-policy", '{', '    "PasswordPolicy": {', '        "MinimumPasswordLength": 14,',
                '        "RequireSymbols": true,', f'        "MaxPasswordAge": {rng.choice([60, 90, 180])},', '        "PasswordReusePrevention": 24', "    }", "}"]
    if choice == 11:
        return ["Guest Wi-Fi", f"WIFI:S:{rng.choice(['Cafe Nordlys', 'Guest', 'Lobby'])};T:nopass;;", "Scan to join · no password needed"]
    if choice == 12:
        return ["$ klist", "Ticket cache: KCM:1000", "Default principal: lena@ACME.IO", "",
                "Valid starting       Expires              Service principal",
                f"11/27/2026 08:{rng.randint(10, 59)}:01  11/27/2026 18:{rng.randint(10, 59)}:01  krbtgt/ACME.IO@ACME.IO"]
    if choice == 13:
        return ["$ gpg --list-secret-keys --keyid-format long", "/home/lena/.gnupg/pubring.kbx", "-------------------------------",
                f"sec   ed25519/{rand(rng, HEX.upper(), 16)} 2024-03-01 [SC]", f"      {rand(rng, HEX.upper(), 40)}",
                "uid                 [ultimate] Lena Berg <lena@acme.io>", f"ssb   cv25519/{rand(rng, HEX.upper(), 16)} 2024-03-01 [E]"]
    if choice == 14:
        return ["$ docker secret ls", "ID                          NAME          CREATED", f"{rand(rng, string.ascii_lowercase + string.digits, 25)}   db_password   2 days ago",
                f"{rand(rng, string.ascii_lowercase + string.digits, 25)}   api_token     5 weeks ago"]
    return ["$ sudo cryptsetup luksDump /dev/sdb1 | sed -n '/Keyslots/,/Digests/p'", "Keyslots:", "  0: luks2", "	PBKDF:      argon2id",
            "	Salt:       " + " ".join(rand(rng, HEX, 2) for _ in range(16)), "	            " + " ".join(rand(rng, HEX, 2) for _ in range(16)),
            "	Digest:     " + " ".join(rand(rng, HEX, 2) for _ in range(16))]


def fifteenth_secret_case(rng):
    """The fifteenth pool (`--pool fifteenth`): written after the fourteenth pool had been through one
    round, before any rule was run on it, from places none of the fourteen earlier pools has: a value a
    command prints alone on the line after it (macOS `security … -w`, `nmcli -s -g …psk`, `wg genkey`,
    `argocd admin initial-password`, `secret-tool lookup`), `openssl dgst -hmac`, a password written to a
    file by `echo >`, PuTTY's `.ppk` and minisign's secret keys, Signal's backup passphrase, `kubectl
    create secret docker-registry`, credentials passed to a function (`server.login(…)`, `auth=(…)`,
    `NetworkCredential(…)`), curl's `-b` cookie, Azure Functions and APIM keys, `oathtool`, Gradle's proxy
    password, ODBC's `Pwd=`, SRT's `passphrase=`, `transmission-remote -n`, `smbpasswd` fed by `echo`,
    rclone's `pass =`, `ipmitool -P`, SNMP communities, `x11vnc -passwd`, `.mbsyncrc`'s `Pass`,
    offlineimap's `remotepass`, `ssh-keygen -N`, a client secret under its label, LXD's trust password,
    Jenkins API tokens, WordPress salts, `ldappasswd -s` and Nostr's `nsec1`."""
    user, host = login_parts(rng)
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng).replace("'", "")
        return "password", rng.choice([[f"$ security add-generic-password -a {user} -s smtp.acme.io -w '{v}'", "$ "],
                                       ["$ security find-generic-password -s smtp.acme.io -w", v, "$ "]]), [v]
    if choice == 1:
        v = plain_password(rng)
        return "password", ["$ nmcli -s -g 802-11-wireless-security.psk connection show Home", v, "$ nmcli radio wifi", "enabled"], [v]
    if choice == 2:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", rng.choice([["$ wg genkey | tee /etc/wireguard/private.key", v, "$ chmod 600 /etc/wireguard/private.key"],
                                      ["$ sudo wg show wg0 private-key", v]]), [v]
    if choice == 3:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ openssl dgst -sha256 -hmac '{v}' payload.json", f"HMAC-SHA2-256(payload.json)= {rand(rng, HEX, 64)}"], [v]
    if choice == 4:
        v = plain_password(rng).replace("'", "").replace("%", "")
        return "password", [rng.choice([f"$ echo '{v}' > ~/.vault_pass.txt", f"$ printf '%s' '{v}' > ~/.config/restic/password"]),
                            "$ chmod 600 ~/.vault_pass.txt"], [v]
    if choice == 5:
        v = rand(rng, ALNUM + "-", 16)
        return "password", ["$ argocd admin initial-password -n argocd", v, "",
                            " This password must be only used for first time login. We strongly recommend you update the password using `argocd account update-password`."], [v]
    if choice == 6:
        v = rand(rng, ALNUM + "+/", 64) + rand(rng, ALNUM + "+/", 4)
        return "api_key", ["PuTTY-User-Key-File-3: ssh-ed25519", "Encryption: none", f"Comment: {user}@laptop", "Public-Lines: 2",
                           "AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(rng, ALNUM + "+/", 39), rand(rng, ALNUM + "+/", 8), "Private-Lines: 1", v,
                           f"Private-MAC: {rand(rng, HEX, 64)}"], [v]
    if choice == 7:
        v = "RWRTY0Iy" + rand(rng, ALNUM + "+/", 64)
        w = rand(rng, ALNUM + "+/", 70)
        return "api_key", ["$ cat ~/.minisign/minisign.key", "untrusted comment: minisign encrypted secret key", v, w], [v, w]
    if choice == 8:
        v = " ".join(rand(rng, string.digits, 5) for _ in range(6))
        return "password", ["Chat backups", "Write down this passphrase. You'll need it to restore a backup.", v, "I have written down the passphrase"], [v]
    if choice == 9:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ kubectl create secret docker-registry regcred --docker-server=registry.acme.io \\",
                            f"    --docker-username={user} --docker-password='{v}' --docker-email={user}@acme.io", "secret/regcred created"], [v]
    if choice == 10:
        v = plain_password(rng).replace('"', "").replace("\\", "")
        return "password", rng.choice([["import smtplib", "server = smtplib.SMTP_SSL(\"smtp.acme.io\", 465)", f"server.login(\"{user}@acme.io\", \"{v}\")"],
                                       [f"r = requests.get(\"https://{host}/api/status\", auth=(\"{user}\", \"{v}\"))", "r.raise_for_status()"],
                                       [f"var cred = new NetworkCredential(\"{user}\", \"{v}\");", "client.Credentials = cred;"]]), [v]
    if choice == 11:
        v = rand(rng, ALNUM + "-_", 43)
        return "api_key", [rng.choice([f"$ curl -b 'session={v}' https://{host}/api/me", f"$ curl --cookie \"auth_token={v}\" https://{host}/api/me"]),
                           '{"id": 42, "name": "' + user + '"}'], [v]
    if choice == 12:
        if rng.random() < 0.5:
            v = rand(rng, ALNUM, 54) + "=="
            return "api_key", [f"$ curl -H 'x-functions-key: {v}' \\", "    https://acme-fn.azurewebsites.net/api/resize"], [v]
        v = rand(rng, HEX, 32)
        return "api_key", ["POST /translate?api-version=3.0&to=de HTTP/1.1", "Host: api.cognitive.microsofttranslator.com",
                           f"Ocp-Apim-Subscription-Key: {v}", "Content-Type: application/json"], [v]
    if choice == 13:
        s = rand(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)
        return "api_key", [f"$ oathtool --totp -b {s}", rand(rng, string.digits, 6)], [s]
    if choice == 14:
        v = plain_password(rng)
        return "password", ["# ~/.gradle/gradle.properties", "systemProp.https.proxyHost=proxy.acme.io", "systemProp.https.proxyUser=" + user,
                            f"systemProp.https.proxyPassword={v}"], [v]
    if choice == 15:
        v = plain_password(rng).replace(";", "").replace("}", "")
        return "password", [f"conn = pyodbc.connect(\"Driver={{ODBC Driver 18 for SQL Server}};Server={host};Database=shop;Uid={user};Pwd={v};Encrypt=yes\")"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, rng.choice([16, 24, 32]))
        return "password", [f"$ ffmpeg -re -i talk.mp4 -c copy -f mpegts 'srt://{host}:9000?passphrase={v}&pbkeylen=16'"], [v]
    if choice == 17:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ transmission-remote {host}:9091 -n '{user}:{v}' -l", f"$ aria2c --enable-rpc --rpc-secret={v} --dir=/srv/dl"]),
                            "ID   Done  Have  ETA  Up  Down  Ratio  Status  Name"], [v]
    if choice == 18:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ (echo '{v}'; echo '{v}') | sudo smbpasswd -s -a {user}", f"Added user {user}."], [v]
    if choice == 19:
        v = rand(rng, ALNUM + "-_", 64)
        return "password", ["$ rclone config show nas", "[nas]", "type = sftp", f"host = {host}", f"user = {user}", f"pass = {v}"], [v]
    if choice == 20:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ ipmitool -I lanplus -H {host} -U ADMIN -P '{v}' chassis power status", "Chassis Power is on"], [v]
    if choice == 21:
        v = rand(rng, ALNUM, rng.choice([12, 16]))
        return "password", rng.choice([["core-sw1(config)# snmp-server community " + v + " RO 10", "core-sw1(config)# end"],
                                       [f"$ snmpwalk -v2c -c {v} {host} system", "SNMPv2-MIB::sysDescr.0 = STRING: Linux nas 6.1.0"]]), [v]
    if choice == 22:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ x11vnc -display :0 -forever -passwd '{v}'", "The VNC desktop is:      nas:0", "PORT=5900"], [v]
    if choice == 23:
        v = plain_password(rng).replace('"', "")
        return "password", rng.choice([["# ~/.mbsyncrc", "IMAPAccount work", f"Host imap.acme.io", f"User {user}@acme.io", f"Pass \"{v}\"", "SSLType IMAPS"],
                                       ["[Repository work-remote]", "type = IMAP", "remotehost = imap.acme.io", f"remoteuser = {user}", f"remotepass = {v}"]]), [v]
    if choice == 24:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ ssh-keygen -t ed25519 -N '{v}' -f ~/.ssh/id_deploy", f"$ ssh-keygen -p -f ~/.ssh/id_ed25519 -P '' -N '{v}'"]),
                            "Your identification has been saved with the new passphrase."], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["Clients › grafana › Credentials", "Client Authenticator   Client Id and Secret", "Client secret", v, "Regenerate"], [v]
    if choice == 26:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ lxc config set core.trust_password '{v}'", "$ lxc config set core.https_address '[::]:8443'"], [v]
    if choice == 27:
        v = "11" + rand(rng, HEX, 32)
        return "api_key", ["API Token", "Current token(s)", f"ci-deploy   {v}", "Copy this token now, because it cannot be recovered in the future."], [v]
    if choice == 28:
        values = [rand(rng, ALNUM + "!#$%&()*+,-.:;<=>?@[]^_{|}~ ", 64).strip() for _ in range(2)]
        return "api_key", [f"define( 'AUTH_KEY',         '{values[0]}' );", f"define( 'SECURE_AUTH_KEY',  '{values[1]}' );"], values
    if choice == 29:
        v = plain_password(rng).replace("'", "").replace('"', "")
        return "password", [f"$ ldappasswd -H ldap://{host} -x -D \"cn=admin,dc=acme,dc=io\" -W -s '{v}' \"uid={user},ou=people,dc=acme,dc=io\"",
                            "Enter LDAP Password:"], [v]
    if choice == 30:
        v = "nsec1" + rand(rng, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
        return "api_key", ["Keys", "Public key", "npub1" + rand(rng, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), "Private key", v, "Never share your private key"], [v]
    v = plain_password(rng)
    return "password", [f"$ secret-tool lookup service imap user {user}", v, "$ "], [v]


def fifteenth_negative_case(rng):
    choice = rng.randrange(16)
    b64 = ALNUM + "+/"
    if choice == 0:
        return ["Realm settings › Keys", "Algorithm  Type  Kid  Use  Public key", f"RS256  RSA  {rand(rng, ALNUM + '-_', 43)}  SIG",
                "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + rand(rng, b64, 40), rand(rng, b64, 80)]
    if choice == 1:
        return ["$ dig +short TXT google._domainkey.acme.io", f'"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC{rand(rng, b64, 60)}"',
                "$ dig +short TXT acme.io", f'"google-site-verification={rand(rng, ALNUM + "-_", 43)}"']
    if choice == 2:
        return ["# secrets.enc.yaml", f"password: ENC[AES256_GCM,data:{rand(rng, b64, 16)}=,iv:{rand(rng, b64, 43)}=,tag:{rand(rng, b64, 22)}==,type:str]",
                "sops:", f"    lastmodified: \"2026-11-2{rng.randint(0, 8)}T10:12:44Z\"", f"    mac: ENC[AES256_GCM,data:{rand(rng, b64, 40)}=,type:str]"]
    if choice == 3:
        return ["apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "spec:", "  encryptedData:", f"    password: AgB{rand(rng, b64, 70)}",
                f"    username: AgC{rand(rng, b64, 50)}"]
    if choice == 4:
        return ["$ curl -s https://auth.acme.io/.well-known/jwks.json | jq '.keys[0]'", "{", '  "kty": "RSA",', '  "use": "sig",',
                f'  "kid": "{rand(rng, HEX, 40)}",', f'  "n": "{rand(rng, ALNUM + "-_", 70)}",', '  "e": "AQAB"', "}"]
    if choice == 5:
        return ["$ dig +short TXT _acme-challenge.acme.io", f'"{rand(rng, ALNUM + "-_", 43)}"', "$ certbot renew --dry-run",
                "Congratulations, all simulated renewals succeeded"]
    if choice == 6:
        return ['{"address": "' + rand(rng, HEX, 40) + '", "crypto": {"cipher": "aes-128-ctr",', f'  "ciphertext": "{rand(rng, HEX, 64)}",',
                f'  "cipherparams": {{"iv": "{rand(rng, HEX, 32)}"}}, "kdf": "scrypt",', f'  "mac": "{rand(rng, HEX, 64)}"}}, "version": 3}}']
    if choice == 7:
        return ["Connection settings", f"Host: {rng.choice(['db-03.internal', '10.0.8.21'])}   Port: 5432", "Username: app_ro",
                "Password: ••••••••••   ☑ Save password", "Test Connection"]
    if choice == 8:
        ulid = "01J" + rand(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23)
        return [f"level=info msg=\"request done\" request_id={ulid} status=200 dur=12ms",
                f"traceparent: 00-{rand(rng, HEX, 32)}-{rand(rng, HEX, 16)}-01", f"trace_id={rand(rng, HEX, 32)} span_id={rand(rng, HEX, 16)}"]
    if choice == 9:
        return ["Origin: Debian", "Suite: stable", "SHA256:", f" {rand(rng, HEX, 64)}  {rng.randint(10000, 99999)} main/binary-amd64/Packages",
                f" {rand(rng, HEX, 64)}  {rng.randint(1000, 9999)} main/binary-amd64/Release"]
    if choice == 10:
        return ["$ ssh-add -l", f"256 SHA256:{rand(rng, b64, 43)} lena@laptop (ED25519)", f"3072 SHA256:{rand(rng, b64, 43)} deploy@ci (RSA)"]
    if choice == 11:
        return ["$ cat assets/hero.png", "version https://git-lfs.github.com/spec/v1", f"oid sha256:{rand(rng, HEX, 64)}", f"size {rng.randint(10000, 9999999)}"]
    if choice == 12:
        return ["Passkeys", "Passkey on iPhone · created Nov 3", f"Credential ID  {rand(rng, ALNUM + '-_', 43)}", "Last used 2 days ago", "Remove"]
    if choice == 13:
        return ["$ sudo wg show", "interface: wg0", f"  public key: {base64.b64encode(rng.randbytes(32)).decode()}", "  private key: (hidden)",
                "  listening port: 51820", "", f"peer: {base64.b64encode(rng.randbytes(32)).decode()}", "  preshared key: (hidden)", "  allowed ips: 10.9.0.2/32"]
    if choice == 14:
        return ["Password Health", f"{rng.choice(['github.com', 'acme.io', 'bank.example'])}   Strong   ●●●●", "Last changed 3 months ago",
                f"Reused on {rng.randint(2, 5)} sites", "Change password"]
    return ["[[package]]", f'name = "{rng.choice(["serde", "tokio", "regex"])}"', f'version = "1.{rng.randint(0, 40)}.{rng.randint(0, 9)}"',
            'source = "registry+https://github.com/rust-lang/crates.io-index"', f'checksum = "{rand(rng, HEX, 64)}"']


def sixteenth_secret_case(rng):
    """The sixteenth pool (`--pool sixteenth`): written after the fifteenth pool had been through one
    round, before any rule was run on it, from places none of the fifteen earlier pools has: Redis ACL's
    `>password`, ACME's `--eab-hmac-key`, BIND's TSIG secrets (`key { secret "…"; }`, `nsupdate -y`),
    FreeRADIUS clients, Ceph keyrings, Kafka's JAAS line, `kadmin addprinc -pw`, `samba-tool`, a
    systemd-cryptenroll recovery key, a YubiKey OTP pasted into a chat, a password typed at the shell
    prompt (`command not found`), qBittorrent's temporary password, Deluge's `auth` file, an *arr
    `config.xml` API key, a Zabbix PSK, `yt-dlp -p`, `vault kv get`'s table, `wpa_passphrase`'s output,
    `docker history` build arguments, crontab lines, a shell trace (`set -x`), shadowsocks' `-k` and
    `ss://` links, `az ad sp create-for-rbac`, MySQL's `SET PASSWORD`/`ALTER USER … BY`, NATS nkey seeds,
    Google Authenticator's export link, `gh secret set --body`, `rclone obscure`, `kcadm.sh
    --new-password` and a password inside an Ansible `password_hash` filter."""
    user, host = login_parts(rng)
    modhex = "cbdefghijklnrtuv"
    choice = rng.randrange(32)
    if choice == 0:
        v = plain_password(rng).replace(" ", "")
        return "password", rng.choice([[f"127.0.0.1:6379> ACL SETUSER {user} on >{v} ~cache:* +get +set", "OK"],
                                       ["# /etc/redis/users.acl", f"user {user} on >{v} ~* &* +@all", "user default off"]]), [v]
    if choice == 1:
        v = rand(rng, ALNUM + "-_", 86)
        return "api_key", [f"$ certbot register --email {user}@acme.io --server https://acme.zerossl.com/v2/DV90 \\",
                           f"    --eab-kid {rand(rng, ALNUM + '-_', 22)} --eab-hmac-key {v}"], [v]
    if choice == 2:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", rng.choice([['key "xfr-key" {', "    algorithm hmac-sha256;", f'    secret "{v}";', "};"],
                                      [f"$ nsupdate -y hmac-sha256:xfr-key:{v}", "> update add www.acme.io 300 A 192.0.2.10", "> send"]]), [v]
    if choice == 3:
        v = plain_password(rng).replace(" ", "")
        return "password", ["# /etc/freeradius/3.0/clients.conf", "client office-ap {", "    ipaddr = 10.0.4.0/24",
                            f"    secret = {v}", "    shortname = office", "}"], [v]
    if choice == 4:
        v = "AQ" + base64.b64encode(rng.randbytes(38)).decode()[2:]
        return "api_key", ["$ sudo ceph auth get client.admin", "[client.admin]", f"\tkey = {v}", '\tcaps mds = "allow *"', '\tcaps mon = "allow *"'], [v]
    if choice == 5:
        v = plain_password(rng).replace('"', "").replace("\\", "")
        return "password", ["security.protocol=SASL_SSL", "sasl.mechanism=PLAIN",
                            f"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"{user}\" password=\"{v}\";"], [v]
    if choice == 6:
        v = plain_password(rng).replace('"', "")
        return "password", [f"$ sudo kadmin.local -q \"addprinc -pw {v} {user}@ACME.IO\"", f"Principal \"{user}@ACME.IO\" created."], [v]
    if choice == 7:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ sudo samba-tool user create {user} {v}", f"$ sudo samba-tool domain provision --realm=ACME.IO --domain=ACME --adminpass='{v}'"]),
                            f"User '{user}' added successfully"], [v]
    if choice == 8:
        v = "-".join(rand(rng, modhex, 8) for _ in range(8))
        return "password", ["$ sudo systemd-cryptenroll --recovery-key /dev/nvme0n1p3", "A secret recovery key has been generated for this volume:",
                            "", f"    🔐 {v}", "", "Please save this secret recovery key at a secure location."], [v]
    if choice == 9:
        v = "cccccc" + rand(rng, modhex, 38)
        return "password", [f"[10:4{rng.randint(0, 9)}] noor: can you check the staging deploy?", f"[10:4{rng.randint(0, 9)}] {user}: {v}",
                            f"[10:4{rng.randint(0, 9)}] {user}: oops, yubikey"], [v]
    if choice == 10:
        v = plain_password(rng).replace("'", "").replace("!", "").replace("&", "").replace("*", "").replace("?", "").replace("^", "")
        return "password", rng.choice([["$ su -", "Password:", "su: Authentication failure", f"$ {v}", f"bash: {v}: command not found"],
                                       [f"% ssh {user}@{host}", f"{user}@{host}'s password:", "Permission denied, please try again.",
                                        f"% {v}", f"zsh: command not found: {v}"]]), [v]
    if choice == 11:
        v = rand(rng, ALNUM, 9)
        return "password", ["******** Information ********", "To control qBittorrent, access the WebUI at: http://localhost:8080",
                            "The WebUI administrator username is: admin",
                            f"The WebUI administrator password was not set. A temporary password is provided for this session: {v}"], [v]
    if choice == 12:
        v = plain_password(rng).replace(":", "")
        w = rand(rng, HEX, 40)
        return "password", ["$ cat ~/.config/deluge/auth", f"localclient:{w}:10", f"{user}:{v}:10"], [v, w]
    if choice == 13:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ cat ~/.config/Sonarr/config.xml", "<Config>", "  <Port>8989</Port>", f"  <ApiKey>{v}</ApiKey>",
                           "  <AuthenticationMethod>Forms</AuthenticationMethod>", "</Config>"], [v]
    if choice == 14:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ openssl rand -hex 32 | sudo tee /etc/zabbix/zabbix_agent2.psk", v,
                           "$ sudo sed -i 's/^# TLSPSKFile=/TLSPSKFile=\\/etc\\/zabbix\\/zabbix_agent2.psk/' /etc/zabbix/zabbix_agent2.conf"], [v]
    if choice == 15:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"$ yt-dlp -u {user}@acme.io -p '{v}' https://video.acme.io/w/42",
                                        f"$ yt-dlp --video-password '{v}' https://vimeo.com/{rng.randint(100000000, 999999999)}"]),
                            "[info] Downloading 1 format(s): 1080p"], [v]
    if choice == 16:
        v = plain_password(rng)
        return "password", [f"$ vault kv get secret/{rng.choice(['db', 'smtp', 'nas'])}", "====== Data ======", "Key         Value",
                            "---         -----", f"password    {v}", f"username    {user}"], [v]
    if choice == 17:
        v = plain_password(rng).replace('"', "")
        w = rand(rng, HEX, 64)
        return "password", [f"$ wpa_passphrase Home-5G '{v}'" if "'" not in v else f"$ wpa_passphrase Home-5G \"{v}\"", "network={", '\tssid="Home-5G"',
                            f'\t#psk="{v}"', f"\tpsk={w}", "}"], [v, w]
    if choice == 18:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ docker history --no-trunc acme/api:{rng.randint(1, 9)}.{rng.randint(0, 9)}", "IMAGE          CREATED BY",
                            f"<missing>      /bin/sh -c #(nop)  ENV DB_PASSWORD={v}", "<missing>      /bin/sh -c #(nop) WORKDIR /app"], [v]
    if choice == 19:
        v = plain_password(rng).replace("'", "")
        return "password", ["$ crontab -l", "# m h dom mon dow command",
                            rng.choice([f"30 2 * * * BORG_PASSPHRASE='{v}' borg create ::'{{hostname}}-{{now}}' /home",
                                        f"*/5 * * * * curl -fsS -u {user}:{v} https://{host}/ping > /dev/null"])], [v]
    if choice == 20:
        v = plain_password(rng).replace("'", "")
        return "password", ["$ bash -x ./deploy.sh", "+ set -euo pipefail", "++ cat /run/secrets/db", f"+ DB_PASS='{v}'",
                            f"+ psql -h {host} -U app -c 'select 1'"], [v]
    if choice == 21:
        v = plain_password(rng).replace("'", "")
        if rng.random() < 0.5:
            return "password", ["$ ps -ef | grep ss-server", f"nobody  812  1  0 09:12 ?  00:00:03 ss-server -s 0.0.0.0 -p 8388 -k {v} -m chacha20-ietf-poly1305"], [v]
        link = base64.urlsafe_b64encode(f"chacha20-ietf-poly1305:{v}".encode()).decode().rstrip("=")
        return "password", ["Server config (share with your devices):", f"ss://{link}@{host}:8388#office"], [link[24:]]
    if choice == 22:
        v = rand(rng, ALNUM, 3) + "8Q~" + rand(rng, ALNUM + "~.-_", 34)
        return "api_key", [f"$ az ad sp create-for-rbac --name ci-{user}", "{", f'  "appId": "{uuid.UUID(bytes=rng.randbytes(16))}",',
                           f'  "displayName": "ci-{user}",', f'  "password": "{v}",', f'  "tenant": "{uuid.UUID(bytes=rng.randbytes(16))}"', "}"], [v]
    if choice == 23:
        v = plain_password(rng).replace("'", "")
        return "password", [rng.choice([f"mysql> SET PASSWORD FOR '{user}'@'%' = '{v}';",
                                        f"mysql> ALTER USER '{user}'@'localhost' IDENTIFIED WITH caching_sha2_password BY '{v}';"]),
                            "Query OK, 0 rows affected (0.01 sec)"], [v]
    if choice == 24:
        v = "SU" + rand(rng, B32, 56)
        return "api_key", ["$ cat ~/.nkeys/creds/acme/app.creds", "-----BEGIN NATS USER JWT-----", "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ",
                           "------END NATS USER JWT------", "", "-----BEGIN USER NKEY SEED-----", v, "------END USER NKEY SEED------"], [v]
    if choice == 25:
        v = rand(rng, ALNUM + "-_", 60)
        return "api_key", ["Export accounts", "Scan this QR code with your new device, or open the link:", f"otpauth-migration://offline?data={v}%3D%3D",
                           "Exported 4 accounts"], [v]
    if choice == 26:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ gh secret set {rng.choice(['DEPLOY_KEY', 'SENTRY_AUTH', 'NPM_PUBLISH'])} --repo acme/app --body \"{v}\"",
                           "✓ Set Actions secret for acme/app"], [v]
    if choice == 27:
        v = plain_password(rng).replace("'", "")
        w = rand(rng, ALNUM + "-_", 48)
        return "password", [f"$ rclone obscure '{v}'", w, "$ rclone config create nas sftp host nas.home user " + user + " pass " + w], [v, w]
    if choice == 28:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ kcadm.sh set-password -r acme --username {user} --new-password '{v}' --temporary", "$ "], [v]
    if choice == 29:
        v = plain_password(rng).replace("'", "").replace('"', "")
        return "password", [f"$ ansible all -b -m user -a \"name={user} password={{{{ '{v}' | password_hash('sha512') }}}}\"",
                            "web-01 | CHANGED => {"], [v]
    if choice == 30:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ sudo prosodyctl register {user} chat.acme.io '{v}'", f"$ sudo ejabberdctl register {user} chat.acme.io '{v}'"][rng.randrange(2):][:1] + ["$ "], [v]
    v = plain_password(rng)
    return "password", ["Reset password for " + user, "Temporary password", v, "☐ Require change at next sign-in", "Copy    Done"], [v]


def sixteenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["# /etc/postgresql/15/main/pg_hba.conf", "# TYPE  DATABASE  USER  ADDRESS        METHOD", "local   all       postgres               peer",
                f"host    all       all   10.{rng.randint(0, 9)}.0.0/16    scram-sha-256", "host    replication  repl  10.0.9.2/32  scram-sha-256"]
    if choice == 1:
        return ["$ sudo blkid", f'/dev/nvme0n1p1: UUID="{rand(rng, HEX.upper(), 4)}-{rand(rng, HEX.upper(), 4)}" TYPE="vfat" PARTUUID="{uuid.UUID(bytes=rng.randbytes(16))}"',
                f'/dev/nvme0n1p2: UUID="{uuid.UUID(bytes=rng.randbytes(16))}" TYPE="ext4" PARTUUID="{uuid.UUID(bytes=rng.randbytes(16))}"']
    if choice == 2:
        return ["$ docker images", "REPOSITORY     TAG      IMAGE ID       CREATED        SIZE",
                f"acme/api       1.{rng.randint(0, 9)}.{rng.randint(0, 9)}    {rand(rng, HEX, 12)}   2 days ago     184MB",
                f"postgres       15       {rand(rng, HEX, 12)}   3 weeks ago    412MB"]
    if choice == 3:
        return ["$ gpg --list-keys --keyid-format long", f"pub   rsa4096/{rand(rng, HEX.upper(), 16)} 2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} [SC]",
                f"      {rand(rng, HEX.upper(), 40)}", f"uid                 [ultimate] Lena Park <lena@acme.io>",
                f"sub   rsa4096/{rand(rng, HEX.upper(), 16)} 2024-03-11 [E]"]
    if choice == 4:
        return ["127.0.0.1:6379> ACL LIST", f'1) "user default on #{rand(rng, HEX, 64)} ~* &* +@all"',
                f'2) "user worker on #{rand(rng, HEX, 64)} ~jobs:* +@list"']
    if choice == 5:
        return ["$ sudo systemd-cryptenroll /dev/nvme0n1p3", "SLOT TYPE", "   0 password", "   1 recovery", "   2 tpm2"]
    if choice == 6:
        return ["$ journalctl --list-boots", f" -1 {rand(rng, HEX, 32)} Mon 2026-11-23 08:01:12 CET Mon 2026-11-23 18:44:09 CET",
                f"  0 {rand(rng, HEX, 32)} Tue 2026-11-24 08:03:55 CET Tue 2026-11-24 11:20:31 CET"]
    if choice == 7:
        return ["$ cat /etc/machine-id", rand(rng, HEX, 32), "$ hostnamectl | grep 'Boot ID'", f"           Boot ID: {rand(rng, HEX, 32)}"]
    if choice == 8:
        return ["$ sudo certbot certificates", "Found the following certs:", "  Certificate Name: acme.io", f"    Serial Number: {rand(rng, HEX, 36)}",
                "    Key Type: ECDSA", "    Domains: acme.io www.acme.io", f"    Expiry Date: 2027-02-{rng.randint(10, 28)} 09:12:44+00:00 (VALID: 89 days)"]
    if choice == 9:
        return ["$ sudo ceph status", "  cluster:", f"    id:     {uuid.UUID(bytes=rng.randbytes(16))}", "    health: HEALTH_OK", "  services:",
                f"    mon: 3 daemons, quorum a,b,c (age {rng.randint(2, 30)}d)"]
    if choice == 10:
        return ["Run ./scripts/deploy.sh", "  env:", "    API_TOKEN: ***", "    DB_PASSWORD: ***", "Deploying to production with token ***",
                f"Uploaded build {rand(rng, HEX, 7)} in {rng.randint(10, 90)}s"]
    if choice == 11:
        return ["$ dig +dnssec DNSKEY acme.io +short", f"257 3 13 {base64.b64encode(rng.randbytes(64)).decode()}",
                f"256 3 13 {base64.b64encode(rng.randbytes(64)).decode()}", f"DNSKEY 13 2 3600 20261225000000 20261125000000 {rng.randint(10000, 65535)} acme.io. {base64.b64encode(rng.randbytes(64)).decode()}"]
    if choice == 12:
        return ["$ ykman info", "Device type: YubiKey 5 NFC", f"Serial number: {rng.randint(10000000, 29999999)}", f"Firmware version: 5.{rng.randint(2, 7)}.{rng.randint(0, 4)}",
                "Enabled USB interfaces: OTP, FIDO, CCID"]
    if choice == 13:
        return [f"$ npm i -D @types/node@20.{rng.randint(0, 17)}.{rng.randint(0, 9)}", f"$ pip install git+https://github.com/acme/lib@v1.{rng.randint(0, 9)}.0",
                f"$ docker pull postgres/postgres@sha256:{rand(rng, HEX, 64)}", "$ git push origin main/release-2026"]
    if choice == 14:
        return ["$ kafka-consumer-groups.sh --describe --group billing", "GROUP    TOPIC     PARTITION  CURRENT-OFFSET  CONSUMER-ID",
                f"billing  invoices  0          {rng.randint(1000, 99999)}           consumer-billing-1-{uuid.UUID(bytes=rng.randbytes(16))}"]
    return ["$ deluge-console info", f"Name: debian-13.{rng.randint(0, 4)}.0-amd64-netinst.iso", f"ID: {rand(rng, HEX, 40)}", "State: Seeding Up Speed: 1.2 MiB/s",
            f"Ratio: {rng.randint(1, 9)}.{rng.randint(10, 99)}"]


def seventeenth_secret_case(rng):
    """The seventeenth pool (`--pool seventeenth`): written after the sixteenth pool had been through one
    round, before any rule was run on it, from places none of the sixteen earlier pools has: OpenVPN's
    `auth-user-pass` file, Nextcloud's `OC_PASS`, Transmission's `rpc-password`, `grafana-cli
    reset-admin-password`, Gitea and Forgejo admin commands, `tootctl`'s new password, `unzip -P` and
    `qpdf --password`, an Ansible vault password file, `podman secret create` and `systemd-creds` fed by
    `printf`/`echo`, RustDesk, WireGuard's `PresharedKey`, strongSwan's `ipsec.secrets`, `racadm`,
    `GOVC_PASSWORD`, `kopia` with B2 keys, a Jellyfin token, Home Assistant's `secrets.yaml`, Tasmota's
    console, OctoPrint's API key page, a Headscale pre-auth key, Woodpecker's agent secret, the JFrog CLI,
    UUID-shaped tokens (Postmark, Opsgenie, Splunk HEC), Duo's `skey`, `lpass`/`gopass` printing a password
    alone, a table with a Password column, PagerDuty's `Token token=`, exchange API secrets, FileZilla's
    base64 `<Pass>`, `redis-cli -a`, `gpg --passphrase` and a password manager's CSV export."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    if choice == 0:
        v = plain_password(rng)
        return "password", ["$ sudo cat /etc/openvpn/client/auth.txt", f"{user}@acme.io", v,
                            "$ sudo openvpn --config office.ovpn --auth-user-pass /etc/openvpn/client/auth.txt"], [v]
    if choice == 1:
        v = plain_password(rng)
        return "password", [f"$ export OC_PASS='{v}'", f"$ sudo -E -u www-data php occ user:add --password-from-env --group=staff {user}",
                            f'The user "{user}" was created successfully'], [v]
    if choice == 2:
        v = plain_password(rng)
        return "password", ["$ sudo cat /etc/transmission-daemon/settings.json | grep rpc", '    "rpc-authentication-required": true,',
                            '    "rpc-enabled": true,', f'    "rpc-password": "{v}",', '    "rpc-port": 9091,', f'    "rpc-username": "{user}",'], [v]
    if choice == 3:
        v = plain_password(rng)
        return "password", [f"$ sudo grafana-cli admin reset-admin-password '{v}'",
                            'INFO [11-28|09:12:44] Starting Grafana                         logger=settings version=11.3.0',
                            "Admin password changed successfully ✔"], [v]
    if choice == 4:
        v = plain_password(rng)
        return "password", [rng.choice([f"$ sudo -u git gitea admin user create --username {user} --password '{v}' --email {user}@acme.io --admin",
                                        f"$ forgejo admin user change-password -u {user} -p '{v}'"]),
                            rng.choice([f"New user '{user}' has been successfully created!", f"{user}'s password has been successfully updated!"])], [v]
    if choice == 5:
        v = rand(rng, HEX, 32)
        return "password", [f"$ RAILS_ENV=production bin/tootctl accounts create {user} --email {user}@acme.io --confirmed --role Owner",
                            "OK", f"New password: {v}"], [v]
    if choice == 6:
        v = plain_password(rng)
        return "password", rng.choice([[f"$ unzip -P '{v}' invoices-2026.zip", "Archive:  invoices-2026.zip", "  inflating: INV-2026-0412.pdf"],
                                       [f"$ qpdf --password='{v}' --decrypt statement-11.pdf statement.pdf", "$ ls", "statement-11.pdf  statement.pdf"]]), [v]
    if choice == 7:
        v = plain_password(rng)
        return "password", ["$ cat ~/.ansible/vault_pass.txt", v, "$ ansible-playbook site.yml --vault-password-file ~/.ansible/vault_pass.txt",
                            "PLAY [all] *********************************************************"], [v]
    if choice == 8:
        v = plain_password(rng).replace("%", "")
        return "password", [f"$ printf '%s' '{v}' | podman secret create db_pass -", rand(rng, HEX, 25), "$ podman secret ls"], [v]
    if choice == 9:
        v = plain_password(rng)
        return "password", [f"$ echo -n '{v}' | sudo systemd-creds encrypt --name=smtp-pass - /etc/credstore.encrypted/smtp-pass",
                            "$ sudo systemctl restart postfix"], [v]
    if choice == 10:
        v = plain_password(rng)
        return "password", [f"$ sudo rustdesk --password '{v}'", "Done!", f"$ rustdesk --get-id", f"{rng.randint(100000000, 999999999)}"], [v]
    if choice == 11:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["[Peer]", f"PublicKey = {base64.b64encode(rng.randbytes(32)).decode()}", f"PresharedKey = {v}",
                           "AllowedIPs = 10.8.0.2/32", "Endpoint = vpn.acme.io:51820"], [v]
    if choice == 12:
        v, w = plain_password(rng), plain_password(rng)
        return "password", ["$ sudo cat /etc/ipsec.secrets", "# source      destination", f'203.0.113.5 198.51.100.7 : PSK "{v}"',
                            f'{user} : EAP "{w}"'], [v, w]
    if choice == 13:
        v = plain_password(rng)
        return "password", [f"$ racadm -r 10.0.9.{rng.randint(10, 99)} -u root -p '{v}' getsysinfo", "RAC Information:",
                            f"RAC Date/Time           = Sat Nov 28 2026 09:{rng.randint(10, 59)}:02"], [v]
    if choice == 14:
        v = plain_password(rng)
        return "password", ["$ export GOVC_URL=vcenter.acme.io GOVC_INSECURE=1", "$ export GOVC_USERNAME='administrator@vsphere.local'",
                            f"$ export GOVC_PASSWORD='{v}'", "$ govc about", "FullName:     VMware vCenter Server 8.0.3 build-24022515"], [v]
    if choice == 15:
        v = "K005" + rand(rng, ALNUM, 27)
        w = plain_password(rng)
        return "api_key", [f"$ kopia repository connect b2 --bucket=acme-backup --key-id=005{rand(rng, HEX, 21)} \\",
                           f"    --key={v} --password='{w}'", "Connected to repository."], [v, w]
    if choice == 16:
        v = rand(rng, HEX, 32)
        return "api_key", rng.choice([[f"$ curl -s -H 'X-Emby-Token: {v}' http://media.home:8096/Items/Counts", '{"MovieCount":412,"SeriesCount":38}'],
                                      [f"http://media.home:8096/Users?api_key={v}", '[{"Name":"lena","ServerId":"f3a1"}]']]), [v]
    if choice == 17:
        v = plain_password(rng)
        w = rand(rng, HEX.upper(), 32)
        return "password", ["# /config/secrets.yaml", "latitude: 52.3731", f"mqtt_password: {v}", f'zwave_s2_access_control_key: "{w}"',
                            "esphome_ota: !secret esphome_ota"], [v, w]
    if choice == 18:
        v, w = plain_password(rng).replace(";", ""), plain_password(rng).replace(";", "")
        return "password", [f"12:04:11.201 CMD: Backlog SSID1 Home-5G; Password1 {v}; MqttUser {user}; MqttPassword {w}",
                            '12:04:11.215 RSL: RESULT = {"SSId1":"Home-5G"}', '12:04:11.230 RSL: RESULT = {"Password1":"****"}'], [v, w]
    if choice == 19:
        v = rand(rng, HEX.upper(), 32)
        return "api_key", ["OctoPrint Settings", "API", "☑ Enable", "Global API Key", v, "Copy     Generate new", "Allow Cross Origin Resource Sharing (CORS)"], [v]
    if choice == 20:
        v = rand(rng, HEX, 48)
        return "api_key", [f"$ headscale preauthkeys create --user {user} --reusable --expiration 24h", v,
                           f"$ sudo tailscale up --login-server https://hs.acme.io --authkey {v}"], [v]
    if choice == 21:
        v = rand(rng, HEX, 64)
        return "api_key", ["  woodpecker-agent:", "    image: woodpeckerci/woodpecker-agent:v2", "    environment:",
                           "      - WOODPECKER_SERVER=woodpecker-server:9000", f"      - WOODPECKER_AGENT_SECRET={v}"], [v]
    if choice == 22:
        v = "cmVmdGtuOjAxOjE3" + rand(rng, ALNUM, 48)
        return "api_key", [f"$ jf c add acme --url=https://acme.jfrog.io --user={user} --access-token={v} --interactive=false",
                           "$ jf rt ping", "OK"], [v]
    if choice == 23:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", rng.choice([[f'$ curl https://api.postmarkapp.com/email -H "X-Postmark-Server-Token: {v}" -d @mail.json', '{"ErrorCode":0,"Message":"OK"}'],
                                      [f'$ curl -X POST https://api.opsgenie.com/v2/alerts -H "Authorization: GenieKey {v}" -d @alert.json', '{"result":"Request will be processed"}'],
                                      [f'$ curl -k https://hec.acme.io:8088/services/collector -H "Authorization: Splunk {v}" -d \'{{"event":"ping"}}\'', '{"text":"Success","code":0}']]), [v]
    if choice == 24:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ sudo cat /etc/duo/pam_duo.conf", "[duo]", f"ikey = DI{rand(rng, string.ascii_uppercase + string.digits, 18)}",
                           f"skey = {v}", f"host = api-{rand(rng, HEX, 8)}.duosecurity.com", "pushinfo = yes"], [v]
    if choice == 25:
        v = plain_password(rng)
        return "password", rng.choice([["$ lpass show --password 'Email/work'", v], [f"$ gopass show -o infra/{rng.choice(['nas', 'router', 'db'])}", v]]) + ["$ "], [v]
    if choice == 26:
        vs = [plain_password(rng) for _ in range(3)]
        return "password", ["Service        Username     Password           Notes", f"Router         admin        {vs[0]}    office",
                            f"NAS            {user}       {vs[1]}    backups", f"Printer        scan         {vs[2]}    2nd floor"], vs
    if choice == 27:
        v = rand(rng, ALNUM + "-_+", 20)
        return "api_key", [f"$ curl https://api.pagerduty.com/incidents -H 'Authorization: Token token={v}' -H 'Accept: application/json'",
                           '{"incidents":[],"limit":25,"offset":0}'], [v]
    if choice == 28:
        v, w = rand(rng, ALNUM, 64), rand(rng, ALNUM, 64)
        return "api_key", ["# ~/bots/grid/.env", f"BINANCE_API_KEY={v}", f"BINANCE_API_SECRET={w}", "SYMBOL=BTCUSDT"], [v, w]
    if choice == 29:
        v = base64.b64encode(plain_password(rng).encode()).decode()
        return "password", ["$ grep -A3 '<Host>' ~/.config/filezilla/sitemanager.xml", f"<Host>{host}</Host>", "<Port>22</Port>", "<Protocol>1</Protocol>",
                            f"<User>{user}</User>", f'<Pass encoding="base64">{v}</Pass>'], [v]
    if choice == 30:
        v = plain_password(rng)
        return "password", rng.choice([[f"$ redis-cli -h cache-01 -a '{v}' --no-auth-warning INFO keyspace", "# Keyspace", "db0:keys=1841,expires=12"],
                                       [f"$ REDISCLI_AUTH='{v}' redis-cli -h cache-01 ping", "PONG"]]), [v]
    if choice == 31:
        v = plain_password(rng)
        return "password", [f"$ gpg --batch --yes --pinentry-mode loopback --passphrase '{v}' -c backup-2026-11.tar", "$ ls backup-2026-11.tar*",
                            "backup-2026-11.tar  backup-2026-11.tar.gpg"], [v]
    vs = [plain_password(rng).replace(",", "") for _ in range(2)]
    return "password", ["$ head -3 ~/Downloads/Chrome\\ Passwords.csv", "name,url,username,password,note",
                        f"github.com,https://github.com/login,{user},{vs[0]},", f"acme.io,https://acme.io/signin,{user}@acme.io,{vs[1]},"], vs


def seventeenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return [f"$ aws ecr get-login-password --region eu-west-1 | docker login --username AWS --password-stdin {rng.randint(100000000000, 999999999999)}.dkr.ecr.eu-west-1.amazonaws.com",
                "Login Succeeded"]
    if choice == 1:
        return ["# AdGuardHome.yaml", "users:", "  - name: admin", f"    password: $2y$10${rand(rng, ALNUM + './', 53)}", "auth_attempts: 5"]
    if choice == 2:
        return ["# jupyter_server_config.py", f"c.ServerApp.password = 'argon2:$argon2id$v=19$m=10240,t=10,p=8${rand(rng, ALNUM + '+/', 22)}${rand(rng, ALNUM + '+/', 43)}'",
                "c.ServerApp.ip = '127.0.0.1'"]
    if choice == 3:
        return ["$ podman secret ls", "ID                         NAME        DRIVER      CREATED        UPDATED",
                f"{rand(rng, HEX, 25)}  db_pass     file        2 minutes ago  2 minutes ago",
                f"{rand(rng, HEX, 25)}  smtp_pass   file        3 days ago     3 days ago"]
    if choice == 4:
        return ["$ tailscale status", f"100.64.0.{rng.randint(1, 9)}   laptop    lena@   linux   -", f"100.64.0.{rng.randint(10, 40)}  nas       lena@   linux   active; direct 192.168.1.40:41641",
                f"100.64.0.{rng.randint(41, 90)}  phone     lena@   android idle"]
    if choice == 5:
        return ["$ openssl x509 -in acme.io.crt -noout -fingerprint -sha256",
                "sha256 Fingerprint=" + ":".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(32))]
    if choice == 6:
        return ["$ ssh-keyscan -t ed25519 github.com", "# github.com:22 SSH-2.0-babeld-" + rand(rng, HEX, 8),
                f"github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(rng.randbytes(32)).decode()[:43]}"]
    if choice == 7:
        return ["# /etc/grafana/grafana.ini", "[security]", "admin_user = admin", "admin_password = $__file{/run/secrets/grafana_admin}",
                "cookie_secure = true"]
    if choice == 8:
        return ["services:", "  db:", "    image: postgres:16", "    environment:", "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}",
                "      POSTGRES_PASSWORD_FILE: /run/secrets/db_password"]
    if choice == 9:
        return ["        env:", "        - name: DB_PASSWORD", "          valueFrom:", "            secretKeyRef:", "              name: db-credentials",
                "              key: password"]
    if choice == 10:
        return ["$ systemd-id128 new", rand(rng, HEX, 32), "$ uuidgen", str(uuid.UUID(bytes=rng.randbytes(16)))]
    if choice == 11:
        return ["$ kopia snapshot list", f"lena@laptop:/home/lena", f"  2026-11-2{rng.randint(0, 7)} 02:00:11 CET k{rand(rng, HEX, 32)} 4.1 GB drwxr-xr-x files:88412 dirs:9120 (latest-1)",
                f"  2026-11-28 02:00:09 CET k{rand(rng, HEX, 32)} 4.1 GB drwxr-xr-x files:88430 dirs:9121 (latest-1,daily-1)"]
    if choice == 12:
        return ["# configuration.yaml", "mqtt:", "  broker: 192.168.1.20", "  username: homeassistant", "  password: !secret mqtt_password"]
    if choice == 13:
        return ["# group_vars/all.yml", 'db_user: "app"', 'db_password: "{{ vault_db_password }}"', 'smtp_password: "{{ lookup(\'env\', \'SMTP_PASSWORD\') }}"']
    if choice == 14:
        return ["Authentication", "Send your API key in the X-Api-Key header:", "  curl -H 'X-Api-Key: <your API key>' http://octopi.local/api/version",
                '  curl -H "Authorization: Bearer $TOKEN" http://octopi.local/api/job']
    return ["12:04:11.230 RSL: RESULT = {\"Password1\":\"****\"}", "12:04:11.244 RSL: RESULT = {\"MqttPassword\":\"****\"}",
            f"12:04:12.002 WIF: Connected to Home-5G (RSSI -{rng.randint(40, 80)} dBm)"]


def eighteenth_secret_case(rng):
    """The eighteenth pool (`--pool eighteenth`): written after the seventeenth pool had been through
    one round, before any rule was run on it, from places none of the seventeen earlier pools has:
    Windows' autologon `DefaultPassword` in `reg query`, Elasticsearch's reset password (`New value:`)
    and enrollment token, `aws configure set`, Kafka's SCRAM `[password=…]`, `netlify env:set` and
    `railway variables --set`, MinIO's `mc admin user add`, Oracle's `expdp`/`impdp user/pass@db`, an
    LDIF `userPassword:`, a CIFS line in `/etc/fstab`, `oc login`/`argocd login`, `kubectl config
    set-credentials --token=`, `jenkins-cli -auth`, Terraform's `credentials.tfrc.json`, `packer -var`,
    `winrs -p:`, Redis Sentinel's `auth-pass`, RabbitMQ's `default_pass`, `kcat -X sasl.password=`, an
    `appsettings.json` JWT key, ASP.NET's `machineKey`, MediaWiki's `$wgSecretKey`, Airflow's
    `fernet_key`, Mattermost's `AtRestEncryptKey`, LiveKit's `keys:`, Nomad's `Secret ID`, `kubeadm
    join --token`, HTTPie's `-a user:pass`, a Cisco `password 0`, AnyDesk's `--set-password` fed by
    `echo`, `influx auth create`'s table, Nextcloud's app password and `ansible-vault encrypt_string`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    if choice == 0:
        v = plain_password(rng)
        return "password", ['C:\\> reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword', "",
                            "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon", f"    DefaultPassword    REG_SZ    {v}"], [v]
    if choice == 1:
        v = rand(rng, ALNUM + "*_=-+", 20)
        return "password", ["$ sudo /usr/share/elasticsearch/bin/elasticsearch-reset-password -u elastic", "This tool will reset the password of the [elastic] user to an autogenerated value.",
                            "The password will be printed in the console.", "Please confirm that you would like to continue [y/N]y", "",
                            "Password for the [elastic] user successfully reset.", f"New value: {v}"], [v]
    if choice == 2:
        body = json.dumps({"ver": "8.15.0", "adr": [f"10.0.0.{rng.randint(2, 99)}:9200"], "fgr": rand(rng, HEX, 64),
                           "key": rand(rng, ALNUM, 20) + ":" + rand(rng, ALNUM + "-_", 22)}, separators=(",", ":"))
        v = base64.b64encode(body.encode()).decode()
        return "api_key", ["$ sudo /usr/share/elasticsearch/bin/elasticsearch-create-enrollment-token -s kibana", v], [v[60:]]
    if choice == 3:
        v = rand(rng, ALNUM + "/+", 40)
        return "api_key", [f"$ aws configure set aws_access_key_id AKIA{rand(rng, string.ascii_uppercase + '234567', 16)} --profile {user}",
                           f"$ aws configure set aws_secret_access_key {v} --profile {user}", "$ aws sts get-caller-identity --profile " + user], [v]
    if choice == 4:
        v = plain_password(rng).replace(",", "").replace("]", "").replace("'", "")
        return "password", ["$ kafka-configs.sh --bootstrap-server kafka:9092 --alter \\",
                            f"    --add-config 'SCRAM-SHA-256=[iterations=8192,password={v}]' --entity-type users --entity-name {user}",
                            f"Completed updating config for user {user}."], [v]
    if choice == 5:
        v = plain_password(rng).replace('"', "")
        return "password", rng.choice([[f"$ netlify env:set DB_PASSWORD '{v}'", "Set environment variable DB_PASSWORD in the all context"],
                                       [f'$ railway variables --set "DB_PASSWORD={v}"', "Set variables DB_PASSWORD"]]), [v]
    if choice == 6:
        v = plain_password(rng)
        return "password", [f"$ mc admin user add local {user} '{v}'", f"Added user `{user}` successfully."], [v]
    if choice == 7:
        v = plain_password(rng).replace("@", "").replace("/", "")
        return "password", [rng.choice([f"$ expdp system/{v}@ORCLPDB1 schemas=HR directory=DP_DIR dumpfile=hr.dmp",
                                        f"$ impdp system/{v}@//db-03:1521/ORCLPDB1 full=Y directory=DP_DIR dumpfile=full.dmp"]),
                            "Export: Release 19.0.0.0.0 - Production on Sat Nov 28 09:12:44 2026"], [v]
    if choice == 8:
        v = plain_password(rng)
        return "password", ["$ cat new-user.ldif", f"dn: uid={user},ou=people,dc=acme,dc=io", "objectClass: inetOrgPerson", f"uid: {user}",
                            f"userPassword: {v}", "$ ldapadd -x -D cn=admin,dc=acme,dc=io -W -f new-user.ldif"], [v]
    if choice == 9:
        v = plain_password(rng).replace(",", "")
        return "password", ["$ grep cifs /etc/fstab", f"//nas.home/backup  /mnt/backup  cifs  username={user},password={v},uid=1000,iocharset=utf8  0  0"], [v]
    if choice == 10:
        v = plain_password(rng)
        return "password", [rng.choice([f"$ oc login https://api.ocp.acme.io:6443 -u kubeadmin -p '{v}'", f"$ argocd login argocd.acme.io --username admin --password '{v}'"]),
                            "Login successful."], [v]
    if choice == 11:
        v = "sha256~" + rand(rng, ALNUM + "-_", 43)
        return "api_key", [f"$ kubectl config set-credentials {user} --token={v}", f'User "{user}" set.'], [v[7:]]
    if choice == 12:
        v = "11" + rand(rng, HEX, 32)
        return "api_key", [f"$ java -jar jenkins-cli.jar -s http://ci.acme.io:8080/ -auth {user}:{v} build deploy -p ENV=prod",
                           "Started deploy #482"], [v]
    if choice == 13:
        v = rand(rng, ALNUM, 14) + ".atlasv1." + rand(rng, ALNUM, 67)
        return "api_key", ["$ cat ~/.terraform.d/credentials.tfrc.json", "{", '  "credentials": {', '    "app.terraform.io": {',
                           f'      "token": "{v}"', "    }", "  }", "}"], [v]
    if choice == 14:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ packer build -var 'ssh_username={user}' -var 'ssh_password={v}' ubuntu.pkr.hcl", "ubuntu.qemu: output will be in this color."], [v]
    if choice == 15:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"C:\\> winrs -r:srv01.acme.io -u:ACME\\{user} -p:{v} ipconfig /all", "Windows IP Configuration"], [v]
    if choice == 16:
        v = plain_password(rng)
        return "password", ["# /etc/redis/sentinel.conf", "sentinel monitor mymaster 10.0.3.11 6379 2", f"sentinel auth-pass mymaster {v}",
                            "sentinel down-after-milliseconds mymaster 5000"], [v]
    if choice == 17:
        v = plain_password(rng)
        return "password", ["# /etc/rabbitmq/rabbitmq.conf", "listeners.tcp.default = 5672", f"default_user = {user}", f"default_pass = {v}",
                            "management.tcp.port = 15672"], [v]
    if choice == 18:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ kcat -b kafka:9093 -X security.protocol=SASL_SSL -X sasl.mechanisms=PLAIN -X sasl.username={user} -X sasl.password={v} -L",
                            "Metadata for all topics (from broker 1: sasl_ssl://kafka:9093/1):"], [v]
    if choice == 19:
        v = rand(rng, ALNUM, 48)
        return "api_key", ["// appsettings.json", "{", '  "Jwt": {', f'    "Key": "{v}",', '    "Issuer": "https://acme.io",', '    "Audience": "acme-api"', "  }", "}"], [v]
    if choice == 20:
        v, w = rand(rng, HEX.upper(), 128), rand(rng, HEX.upper(), 64)
        return "api_key", ["<system.web>", f'  <machineKey validationKey="{v}"', f'              decryptionKey="{w}"', '              validation="HMACSHA256" decryption="AES" />',
                           "</system.web>"], [v, w]
    if choice == 21:
        v = rand(rng, HEX, 64)
        return "api_key", ["# LocalSettings.php", '$wgSitename = "Acme Wiki";', f'$wgSecretKey = "{v}";', f'$wgUpgradeKey = "{rand(rng, HEX, 16)}";'], [v]
    if choice == 22:
        v = base64.urlsafe_b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ grep -A3 '^\\[core\\]' airflow.cfg", "[core]", "dags_folder = /opt/airflow/dags", f"fernet_key = {v}"], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 32)
        return "api_key", ['  "SqlSettings": {', '    "DriverName": "postgres",', f'    "AtRestEncryptKey": "{v}",', '    "QueryTimeout": 30'], [v]
    if choice == 24:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["# livekit.yaml", "port: 7880", "keys:", f"  API{rand(rng, ALNUM, 12)}: {v}", "rtc:", "  tcp_port: 7881"], [v]
    if choice == 25:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ nomad acl bootstrap", f"Accessor ID  = {uuid.UUID(bytes=rng.randbytes(16))}", f"Secret ID    = {v}", "Name         = Bootstrap Token",
                           "Type         = management", "Global       = true"], [v]
    if choice == 26:
        v = rand(rng, string.ascii_lowercase + string.digits, 6) + "." + rand(rng, string.ascii_lowercase + string.digits, 16)
        return "api_key", ["$ sudo kubeadm token create --print-join-command", f"kubeadm join 10.0.0.10:6443 --token {v} --discovery-token-ca-cert-hash sha256:{rand(rng, HEX, 64)}"], [v]
    if choice == 27:
        v = plain_password(rng).replace(":", "")
        return "password", [rng.choice([f"$ http -a {user}:{v} POST https://api.acme.io/items name=lamp", f"$ http --auth={user}:{v} https://api.acme.io/me"]),
                            "HTTP/1.1 201 Created"], [v]
    if choice == 28:
        v = plain_password(rng).replace(" ", "")
        return "password", ["switch-01# show running-config | include username", f"username {user} privilege 15 password 0 {v}",
                            f"username backup privilege 1 secret 9 $9${rand(rng, ALNUM + './', 14)}${rand(rng, ALNUM + './', 43)}"], [v]
    if choice == 29:
        v = plain_password(rng).replace("'", "")
        return "password", [f"$ echo '{v}' | sudo anydesk --set-password", "$ anydesk --get-id", str(rng.randint(100000000, 999999999))], [v]
    if choice == 30:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["$ influx auth create --org acme --all-access", "ID                 Description  Token" + " " * 80 + "User Name  Permissions",
                           f"0c{rand(rng, HEX, 14)}               {v}  {user}       [read:orgs/… write:orgs/…]"], [v]
    if choice == 31:
        v = "-".join(rand(rng, ALNUM, 5) for _ in range(5))
        return "password", [f"$ sudo -u www-data php occ user:add-app-password {user}", "The app password is:", v, "It is shown only once."], [v]
    v = plain_password(rng).replace("'", "")
    return "password", [f"$ ansible-vault encrypt_string '{v}' --name 'db_password'", "Encryption successful", "db_password: !vault |",
                        "          $ANSIBLE_VAULT;1.1;AES256", "          " + rand(rng, HEX, 64)], [v]


def eighteenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["dn: uid=lena,ou=people,dc=acme,dc=io", "objectClass: inetOrgPerson", f"userPassword: {{SSHA}}{base64.b64encode(rng.randbytes(24)).decode()}"]
    if choice == 1:
        return ["$ mysql_config_editor set --login-path=local --host=localhost --user=root --password", "Enter password:", "$ mysql --login-path=local"]
    if choice == 2:
        return ["$ psql -h db-03.internal -U app -W shop", "Password for user app:", "psql (16.4)", "shop=>"]
    if choice == 3:
        return ["root@srx# show system root-authentication", f'encrypted-password "$6${rand(rng, ALNUM + "./", 8)}${rand(rng, ALNUM + "./", 86)}"; ## SECRET-DATA']
    if choice == 4:
        return ["$ openssl x509 -pubkey -in /etc/kubernetes/pki/ca.crt | openssl rsa -pubin -outform der 2>/dev/null | sha256sum", f"{rand(rng, HEX, 64)}  -"]
    if choice == 5:
        return ["$ nomad acl token self", f"Accessor ID  = {uuid.UUID(bytes=rng.randbytes(16))}", "Name         = ci-deployer", "Type         = client",
                "Global       = false", "Policies     = [deploy]"]
    if choice == 6:
        return ["$ vault status", "Key             Value", "---             -----", "Seal Type       shamir", "Initialized     true", "Sealed          false",
                "Total Shares    5", "Threshold       3", f"Version         1.17.{rng.randint(0, 9)}", f"Cluster ID      {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 7:
        return ["GET _cluster/health", "{", '  "cluster_name" : "acme-logs",', '  "status" : "green",', f'  "number_of_nodes" : {rng.randint(3, 9)},',
                f'  "active_shards" : {rng.randint(10, 900)}', "}"]
    if choice == 8:
        return ["$ airflow connections list -o table", "conn_id          conn_type  host             login     password",
                "postgres_default postgres   db-03.internal   airflow   ***", "smtp_default     smtp       smtp.acme.io     alerts    ***"]
    if choice == 9:
        return ["<system.web>", '  <machineKey validationKey="AutoGenerate,IsolateApps" decryptionKey="AutoGenerate,IsolateApps" validation="HMACSHA256" />', "</system.web>"]
    if choice == 10:
        return ['  "Logging": { "LogLevel": { "Default": "Information" } },', '  "AllowedHosts": "*",', '  "Jwt": { "Issuer": "https://acme.io", "Audience": "acme-api", "ExpiresMinutes": 60 }']
    if choice == 11:
        return ['C:\\> reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon"', "    AutoAdminLogon    REG_SZ    1",
                "    DefaultUserName    REG_SZ    lena", "    DefaultDomainName    REG_SZ    ACME", "    Shell    REG_SZ    explorer.exe"]
    if choice == 12:
        return ["$ kcat -b kafka:9093 -L", "Metadata for all topics (from broker 1: sasl_ssl://kafka-1:9093/1):", " 3 brokers:",
                "  broker 1 at kafka-1:9093 (controller)", f"  {rng.randint(4, 40)} topics:"]
    if choice == 13:
        return ["db_password: !vault |", "          $ANSIBLE_VAULT;1.1;AES256", "          " + rand(rng, HEX, 64), "          " + rand(rng, HEX, 64)]
    if choice == 14:
        return ["$ docker secret inspect db_pass", "[", "    {", f'        "ID": "{rand(rng, string.ascii_lowercase + string.digits, 25)}",',
                '        "Version": { "Index": 11 },', f'        "CreatedAt": "2026-11-2{rng.randint(0, 8)}T09:12:44.51Z",', '        "Spec": { "Name": "db_pass", "Labels": {} }', "    }", "]"]
    return ["$ mc admin user list local", f"enabled    lena       readwrite", f"enabled    backup     {rng.choice(['readonly', 'diagnostics'])}",
            "$ mc admin user info local lena", "AccessKey: lena", "Status: enabled", "PolicyName: readwrite"]


def nineteenth_secret_case(rng):
    """The nineteenth pool (`--pool nineteenth`): written after the eighteenth pool had been through
    one round, before any rule was run on it, from places none of the eighteen earlier pools has:
    `aws ssm get-parameter --with-decryption`, `aws rds --master-user-password`, `openstack
    --os-password`, `consul kv get`, `chamber read`, `infisical secrets set`, `wp config set`,
    `bitcoin-cli walletpassphrase`, Nextcloud's `mail_smtppassword --value=`, `rdesktop -p`, `pscp
    -pw`, WinSCP's `-passphrase=`, an OpenVPN `--askpass` file, Oracle's `mkstore -createCredential`,
    `dsadd -pwd`, DuckDNS's `token=` in a URL, `inadyn.conf`, NickServ's `IDENTIFY`, WeeChat's
    `sasl_password`, ZNC's `/quote PASS`, Composer's `bearer` and `github-oauth`, `helm --set-string`,
    `gitlab-runner register --registration-token`, `net-snmp-create-v3-user -A -X`, Proxmox's `pct
    create --password`, `rabbitmqadmin -p`, strongSwan's `swanctl.conf`, `murmurd -supw`, `mcrcon -p`,
    `influx setup`, Vaultwarden's `ADMIN_TOKEN` and `sonar-scanner -Dsonar.login=`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    if choice == 0:
        v = plain_password(rng)
        return "password", [f"$ aws ssm get-parameter --name /prod/shop/db_password --with-decryption", "{", '    "Parameter": {',
                            '        "Name": "/prod/shop/db_password",', '        "Type": "SecureString",', f'        "Value": "{v}",',
                            f'        "Version": {rng.randint(1, 9)},', '        "DataType": "text"', "    }", "}"], [v]
    if choice == 1:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ aws rds create-db-instance --db-instance-identifier shop-db --engine postgres --master-username {user} \\",
                            f"    --master-user-password {v} --allocated-storage 20 --db-instance-class db.t4g.micro"], [v]
    if choice == 2:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ openstack --os-auth-url https://keystone.acme.io:5000/v3 --os-username {user} --os-password {v} server list",
                            "+--------------------------------------+--------+--------+", "| ID                                   | Name   | Status |"], [v]
    if choice == 3:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ consul kv get service/shop/api_token", v, "$ consul kv get service/shop/region", "eu-west-1"], [v]
    if choice == 4:
        v = plain_password(rng).replace(" ", "")
        return "password", ["$ chamber read shop db_password", "Key            Value              Version    LastModified    User",
                            f"db_password    {v}    {rng.randint(1, 9)}          2026-11-2{rng.randint(0, 8)}      {user}"], [v]
    if choice == 5:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ infisical secrets set DB_PASSWORD={v}", "┌─────────────┬──────────────────┬────────────────┐",
                            "│ SECRET NAME │ SECRET VALUE     │ STATUS         │", "├─────────────┼──────────────────┼────────────────┤",
                            f"│ DB_PASSWORD │ {v} │ SECRET CREATED │", "└─────────────┴──────────────────┴────────────────┘"], [v]
    if choice == 6:
        v = plain_password(rng)
        return "password", [f"$ wp config set DB_PASSWORD '{v}' --type=constant", "Success: Updated the constant 'DB_PASSWORD' in the 'wp-config.php' file with the raw value."], [v]
    if choice == 7:
        v = plain_password(rng)
        return "password", [f'$ bitcoin-cli walletpassphrase "{v}" 600', "$ bitcoin-cli getwalletinfo | grep unlocked_until", f'  "unlocked_until": {rng.randint(1700000000, 1800000000)},'], [v]
    if choice == 8:
        v = plain_password(rng)
        return "password", [f"$ sudo -u www-data php occ config:system:set mail_smtppassword --value='{v}'", "System config value mail_smtppassword set to string " + "*" * 10], [v]
    if choice == 9:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ rdesktop -u {user} -p '{v}' -g 1600x900 srv01.acme.io", "Autoselecting keyboard map 'en-us' from locale"], [v]
    if choice == 10:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"C:\\> pscp -pw {v} backup.tar {user}@{host}:/srv/backup/", "backup.tar                | 48213 kB | 9642.6 kB/s | ETA: 00:00:00 | 100%"], [v]
    if choice == 11:
        v = plain_password(rng).replace('"', "")
        return "password", ["C:\\> winscp.com /command ^", f'  "open sftp://{user}@{host}/ -privatekey=C:\\keys\\{user}.ppk -passphrase=""{v}""" ^', '  "get /srv/report.pdf" "exit"'], [v]
    if choice == 12:
        v = plain_password(rng)
        return "password", ["$ sudo cat /etc/openvpn/client/key-pass.txt", v, "$ sudo openvpn --config client.ovpn --askpass /etc/openvpn/client/key-pass.txt"], [v]
    if choice == 13:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ mkstore -wrl /u01/app/oracle/wallet -createCredential shop_db app {v}", "Oracle Secret Store Tool Release 19.0.0.0.0 - Production",
                            "Enter wallet password:"], [v]
    if choice == 14:
        v = plain_password(rng).replace(" ", "").replace('"', "")
        return "password", [f'C:\\> dsadd user "CN={user.title()},OU=Staff,DC=acme,DC=io" -samid {user} -pwd {v} -mustchpwd yes',
                            f"dsadd succeeded:CN={user.title()},OU=Staff,DC=acme,DC=io"], [v]
    if choice == 15:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f'$ curl "https://www.duckdns.org/update?domains=acme-home&token={v}&ip="', "OK"], [v]
    if choice == 16:
        v = plain_password(rng).replace(" ", "")
        return "password", ["# /etc/inadyn.conf", "period = 300", f"provider default@freedns.afraid.org {{ username = {user} password = {v} hostname = acme.mooo.com }}"], [v]
    if choice == 17:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"[10:42] /msg NickServ IDENTIFY {user} {v}", "[10:42] -NickServ- You are now identified for " + user + "."], [v]
    if choice == 18:
        v = plain_password(rng).replace('"', "")
        return "password", [f'/set irc.server.libera.sasl_username "{user}"', f'/set irc.server.libera.sasl_password "{v}"', "/save"], [v]
    if choice == 19:
        v = plain_password(rng).replace(" ", "")
        return "password", ["/server add znc znc.acme.io/6697 -ssl", f"/quote PASS {user}/libera:{v}", "-*status- You are currently connected to libera."], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ cat ~/.config/composer/auth.json", "{", '    "bearer": {', f'        "repo.acme.io": "{v}"', "    }", "}"], [v]
    if choice == 21:
        v = rand(rng, HEX, 40)
        return "api_key", ["$ cat auth.json", "{", '    "github-oauth": {', f'        "github.com": "{v}"', "    }", "}"], [v]
    if choice == 22:
        v = plain_password(rng).replace(",", "").replace(" ", "")
        return "password", [f"$ helm upgrade --install shop ./chart --set-string redis.auth.password={v} --namespace shop",
                            'Release "shop" has been upgraded. Happy Helming!'], [v]
    if choice == 23:
        v = "GR1348941" + rand(rng, ALNUM + "_-", 20)
        return "api_key", [f"$ sudo gitlab-runner register --non-interactive --url https://git.acme.io/ --registration-token {v} --executor docker",
                           "Runner registered successfully."], [v]
    if choice == 24:
        v, w = plain_password(rng).replace(" ", ""), plain_password(rng).replace(" ", "")
        return "password", [f"$ sudo net-snmp-create-v3-user -ro -A {v} -a SHA -X {w} -x AES {user}", "adding the following line to /var/lib/snmp/snmpd.conf:",
                            f'   createUser {user} SHA "{v}" AES "{w}"'], [v, w]
    if choice == 25:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ pct create 120 local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst --hostname web01 --password {v} --memory 1024",
                            "extracting archive '/var/lib/vz/template/cache/debian-12-standard_12.7-1_amd64.tar.zst'"], [v]
    if choice == 26:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ rabbitmqadmin -H mq.acme.io -u {user} -p {v} list queues name messages", "+--------+----------+", "|  name  | messages |"], [v]
    if choice == 27:
        v = plain_password(rng).replace('"', "").replace(" ", "")
        return "password", ["# /etc/swanctl/swanctl.conf", "secrets {", f"    eap-{user} {{", f"        id = {user}", f'        secret = "{v}"', "    }", "}"], [v]
    if choice == 28:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ sudo murmurd -ini /etc/mumble-server.ini -supw {v}", "<W>2026-11-28 10:12:44.512 Superuser password set on server 1"], [v]
    if choice == 29:
        v = plain_password(rng).replace(" ", "").replace('"', "")
        return "password", [f'$ mcrcon -H {host} -P 25575 -p {v} "list"', f"There are {rng.randint(0, 9)} of a max of 20 players online:"], [v]
    if choice == 30:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ influx setup --username {user} --password {v} --org acme --bucket metrics --retention 30d --force",
                            "User     Organization    Bucket", f"{user}     acme            metrics"], [v]
    if choice == 31:
        v = base64.b64encode(rng.randbytes(48)).decode()
        return "api_key", ["# /opt/vaultwarden/.env", "DOMAIN=https://vault.acme.io", "SIGNUPS_ALLOWED=false", f"ADMIN_TOKEN={v}"], [v]
    v = rand(rng, HEX, 40)
    return "api_key", ["$ sonar-scanner -Dsonar.projectKey=shop -Dsonar.host.url=https://sonar.acme.io \\", f"    -Dsonar.login={v}",
                       "INFO: Scanner configuration file: /opt/sonar-scanner/conf/sonar-scanner.properties"], [v]


def nineteenth_negative_case(rng):
    choice = rng.randrange(16)
    if choice == 0:
        return ["<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>", "  <id>deploy-creds</id>", "  <username>deploy</username>",
                f"  <password>{{{base64.b64encode(rng.randbytes(60)).decode()}}}</password>", "</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>"]
    if choice == 1:
        return ["$ cat secrets.ejson", "{", f'  "_public_key": "{rand(rng, HEX, 64)}",',
                f'  "db_password": "EJ[1:{base64.b64encode(rng.randbytes(32)).decode()}:{base64.b64encode(rng.randbytes(24)).decode()}:{base64.b64encode(rng.randbytes(28)).decode()}]"', "}"]
    if choice == 2:
        return ["$ chamber list shop", "Key            Version    LastModified    User", f"api_token      {rng.randint(1, 9)}          2026-11-2{rng.randint(0, 8)}      ops",
                f"db_password    {rng.randint(1, 9)}          2026-11-1{rng.randint(0, 8)}      lena"]
    if choice == 3:
        return ["$ consul operator raft list-peers", "Node     ID                                    Address          State     Voter",
                f"srv-1    {uuid.UUID(bytes=rng.randbytes(16))}  10.0.1.11:8300   leader    true",
                f"srv-2    {uuid.UUID(bytes=rng.randbytes(16))}  10.0.1.12:8300   follower  true"]
    if choice == 4:
        return ["$ wp config has DB_PASSWORD && echo set", "set", "$ wp config get DB_HOST", "localhost:3306"]
    if choice == 5:
        return ["$ bitcoin-cli getwalletinfo", "{", '  "walletname": "main",', f'  "hdseedid": "{rand(rng, HEX, 40)}",', '  "unlocked_until": 0,',
                f'  "keypoolsize": {rng.randint(900, 1000)}', "}"]
    if choice == 6:
        return ["C:\\> winscp.com /command ^", f'  "open sftp://lena@nas.home/ -hostkey=""ssh-ed25519 255 {base64.b64encode(rng.randbytes(32)).decode()[:43]}""" ^', '  "ls" "exit"']
    if choice == 7:
        return ["$ mkstore -wrl /u01/app/oracle/wallet -listCredential", "Oracle Secret Store Tool Release 19.0.0.0.0 - Production", "List credential (index: connect_string username)",
                "1: shop_db app", "2: report_db reporter"]
    if choice == 8:
        return ["$ upsc ups@localhost", "battery.charge: 100", f"battery.runtime: {rng.randint(900, 4000)}", f"ups.serial: {rand(rng, string.ascii_uppercase + string.digits, 12)}",
                "ups.status: OL"]
    if choice == 9:
        return ['C:\\> dsquery user -name lena', '"CN=Lena,OU=Staff,DC=acme,DC=io"', "C:\\> dsget user \"CN=Lena,OU=Staff,DC=acme,DC=io\" -pwdneverexpires", "  pwdneverexpires", "  no"]
    if choice == 10:
        return ['$ curl "https://www.duckdns.org/update?domains=acme-home&token=${DUCKDNS_TOKEN}&ip="', "OK"]
    if choice == 11:
        return ["[10:42] /msg NickServ INFO lena", f"[10:42] -NickServ- Information on lena (account lena):", f"[10:42] -NickServ- Registered : Mar 0{rng.randint(1, 9)} 2024 09:12:44 (2y 8w ago)",
                "[10:42] -NickServ- Last seen  : now"]
    if choice == 12:
        return ["$ helm upgrade --install shop ./chart --set postgresql.auth.existingSecret=shop-db --set postgresql.auth.secretKeys.userPasswordKey=password",
                'Release "shop" has been upgraded. Happy Helming!']
    if choice == 13:
        return ["$ sudo gitlab-runner verify", "Runtime platform    arch=amd64 os=linux revision=" + rand(rng, HEX, 8) + " version=17.5.2",
                f"Verifying runner... is valid    runner={rand(rng, ALNUM, 8)}"]
    if choice == 14:
        return ["$ aws ssm get-parameter --name /prod/shop/db_password", '    "Type": "SecureString",',
                f'    "Value": "AQICAHh{base64.b64encode(rng.randbytes(120)).decode()}",', f'    "Version": {rng.randint(1, 9)}']
    return ["# /opt/vaultwarden/.env", "DOMAIN=https://vault.acme.io",
            f"ADMIN_TOKEN='$argon2id$v=19$m=65540,t=3,p=4${base64.b64encode(rng.randbytes(32)).decode().rstrip('=')}${base64.b64encode(rng.randbytes(32)).decode().rstrip('=')}'"]


def twentieth_secret_case(rng):
    """The twentieth pool (`--pool twentieth`): written after the nineteenth pool had been through
    one round, before any rule was run on it, from places none of the nineteen earlier pools has:
    Certbot's `dns_cloudflare_api_token`, `ddclient.conf`, davfs2's `secrets`, PPP's `chap-secrets`,
    `jarsigner -storepass -keypass`, `apksigner --ks-pass pass:`, `xcrun notarytool --password`,
    `etcdctl --user`, Keycloak's `KC_BOOTSTRAP_ADMIN_PASSWORD`, `cqlsh -p`, curl's `--proxy-user`,
    irssi's `/connect` with a password, the legacy `mongo -p`, frp's `auth.token`, `chisel --auth`,
    3proxy's `users name:CL:pass`, `john --show`, aircrack-ng's `KEY FOUND!`, PlatformIO's
    `upload_flags = --auth=`, Zigbee2MQTT's `network_key`, Node-RED's `credentialSecret`, Concourse's
    `fly login -p`, `dotnet nuget add source -p`, Maven's `-Dgpg.passphrase=`, `wpa_cli set_network
    psk`, Authelia's `jwt_secret` and session `secret`, a signify secret key, a Nebula private key,
    Gotify's `?token=`, Paperless's `PAPERLESS_SECRET_KEY` and `PAPERLESS_DBPASS`, an Incus trust
    token wider than the screen (wrapped as a terminal wraps it), `ejabberdctl register` and
    NZBGet's `ControlPassword`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    if choice == 0:
        v = rand(rng, ALNUM + "_-", 40)
        return "api_key", ["$ sudo cat /etc/letsencrypt/cloudflare.ini", "# Cloudflare API token used by Certbot",
                           f"dns_cloudflare_api_token = {v}"], [v]
    if choice == 1:
        v = rand(rng, HEX, 32)
        return "password", ["# /etc/ddclient.conf", "use=web, web=dynamicdns.park-your-domain.com/getip", "protocol=namecheap",
                            "server=dynamicdns.park-your-domain.com", "login=acme.io", f"password={v}", "@, www"], [v]
    if choice == 2:
        v = plain_password(rng).replace(" ", "")
        return "password", ["$ sudo tail -2 /etc/davfs2/secrets", "# personal WebDAV",
                            f"https://cloud.acme.io/remote.php/dav/files/{user}/   {user}   {v}"], [v]
    if choice == 3:
        v = plain_password(rng).replace(" ", "")
        shown = f'"{v}"' if rng.random() < 0.5 else v
        return "password", ["# /etc/ppp/chap-secrets", "# client        server  secret              IP addresses",
                            f"{user}        *       {shown}        *"], [v]
    if choice == 4:
        v, w = plain_password(rng).replace(" ", ""), plain_password(rng).replace(" ", "")
        return "password", [f"$ jarsigner -keystore release.jks -storepass {v} -keypass {w} app.apk release", "jar signed."], [v, w]
    if choice == 5:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ apksigner sign --ks release.jks --ks-key-alias upload --ks-pass pass:{v} app-release.apk"], [v]
    if choice == 6:
        v = "-".join(rand(rng, string.ascii_lowercase, 4) for _ in range(4))
        return "password", [f"$ xcrun notarytool submit App.zip --apple-id {user}@acme.io --team-id {rand(rng, string.ascii_uppercase + string.digits, 10)} \\",
                            f"    --password {v} --wait", "Conducting pre-submission checks for App.zip and initiating connection to the Apple notary service..."], [v]
    if choice == 7:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ etcdctl --endpoints=https://10.0.0.11:2379 --user root:{v} member list",
                            f"{rand(rng, HEX, 16)}, started, etcd-1, https://10.0.0.11:2380, https://10.0.0.11:2379, false"], [v]
    if choice == 8:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ docker run -p 8080:8080 -e KC_BOOTSTRAP_ADMIN_USERNAME=admin -e KC_BOOTSTRAP_ADMIN_PASSWORD={v} \\",
                            "    quay.io/keycloak/keycloak:26.0 start-dev"], [v]
    if choice == 9:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ cqlsh 10.0.0.21 9042 -u cassandra -p {v}", "Connected to Prod Cluster at 10.0.0.21:9042",
                            "[cqlsh 6.1.0 | Cassandra 4.1.5 | CQL spec 3.4.6 | Native protocol v5]", "cqlsh>"], [v]
    if choice == 10:
        v = plain_password(rng).replace(" ", "")
        flag = rng.choice(["--proxy-user", "-U"])
        return "password", [f"$ curl -x http://proxy.acme.io:3128 {flag} {user}:{v} -I https://example.com", "HTTP/1.1 200 Connection established"], [v]
    if choice == 11:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"[10:42] /connect -tls irc.libera.chat 6697 {v} {user}",
                            "[10:42] -!- Irssi: Looking up irc.libera.chat", "[10:42] -!- Irssi: Connection to irc.libera.chat established"], [v]
    if choice == 12:
        v = plain_password(rng)
        return "password", [f"$ mongo --host db01.acme.io -u admin -p '{v}' --authenticationDatabase admin", "MongoDB shell version v4.4.29",
                            "connecting to: mongodb://db01.acme.io:27017/?authSource=admin"], [v]
    if choice == 13:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["# frpc.toml", 'serverAddr = "203.0.113.40"', "serverPort = 7000", 'auth.method = "token"', f'auth.token = "{v}"'], [v]
    if choice == 14:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ chisel client --auth {user}:{v} https://tunnel.acme.io R:2222:localhost:22",
                            "2026/11/28 10:12:44 client: Connected (Latency 21.4ms)"], [v]
    if choice == 15:
        v = plain_password(rng).replace(" ", "")
        return "password", ["# /etc/3proxy/3proxy.cfg", "nserver 1.1.1.1", f"users {user}:CL:{v}", "auth strong", "socks -p1080"], [v]
    if choice == 16:
        v = plain_password(rng).replace(" ", "")
        return "password", ["$ john --show shadow.txt", f"{user}:{v}:19700:0:99999:7:::", "", "1 password hash cracked, 0 left"], [v]
    if choice == 17:
        v = plain_password(rng).replace(" ", "")
        master = " ".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(16))
        return "password", ["                          Aircrack-ng 1.7", f"      [00:00:03] {rng.randint(1000, 14000)}/14344391 keys tested (4096.33 k/s)",
                            f"                       KEY FOUND! [ {v} ]", f"      Master Key     : {master}"], [v]
    if choice == 18:
        v = plain_password(rng).replace(" ", "").replace(";", "")
        return "password", ["; platformio.ini", "[env:esp32-ota]", "upload_protocol = espota", "upload_port = 192.168.1.50", f"upload_flags = --auth={v}"], [v]
    if choice == 19:
        numbers = [rng.randint(0, 255) for _ in range(16)]
        v = ", ".join(map(str, numbers))
        return "api_key", ["# zigbee2mqtt/configuration.yaml", "advanced:", f"  pan_id: {rng.randint(1000, 9999)}", f"  network_key: [{v}]",
                           "  channel: 11"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["// ~/.node-red/settings.js", "module.exports = {", '    flowFile: "flows.json",', f'    credentialSecret: "{v}",',
                           "    uiPort: process.env.PORT || 1880,"], [v]
    if choice == 21:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ fly -t ci login -c https://ci.acme.io -u admin -p {v}", "logging in to team 'main'", "", "target saved"], [v]
    if choice == 22:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ dotnet nuget add source https://nuget.acme.io/v3/index.json -n acme -u {user} -p {v} \\",
                            "    --store-password-in-clear-text", "Package source with Name: acme added successfully."], [v]
    if choice == 23:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ mvn clean deploy -P release -Dgpg.passphrase={v} -DskipTests", "[INFO] Scanning for projects..."], [v]
    if choice == 24:
        v = plain_password(rng).replace(" ", "")
        return "password", ["$ sudo wpa_cli -i wlan0", "> add_network", "1", f'> set_network 1 ssid "HomeNet"', "OK", f'> set_network 1 psk "{v}"', "OK"], [v]
    if choice == 25:
        v, w = rand(rng, ALNUM, 64), rand(rng, ALNUM, 48)
        return "api_key", ["# authelia/configuration.yml", "identity_validation:", "  reset_password:", f"    jwt_secret: '{v}'", "session:",
                           f"  secret: '{w}'"], [v, w]
    if choice == 26:
        body = base64.b64encode(b"EdBK" + bytes(4) + rng.randbytes(96)).decode()
        return "api_key", ["$ cat ~/.signify/acme-release.sec", "untrusted comment: signify secret key", body], [body[12:]]
    if choice == 27:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ sudo cat /etc/nebula/host.key", "-----BEGIN NEBULA X25519 PRIVATE KEY-----", v, "-----END NEBULA X25519 PRIVATE KEY-----"], [v]
    if choice == 28:
        v = "A" + rand(rng, ALNUM + "._-", 14)
        return "api_key", [f'$ curl "https://push.acme.io/message?token={v}" -F "title=Backup" -F "message=done"',
                           '{"id":' + str(rng.randint(10, 999)) + ',"appid":3,"message":"done","title":"Backup","priority":0}'], [v]
    if choice == 29:
        v, w = rand(rng, ALNUM + "!@#%^&*(-_=+)", 50), plain_password(rng).replace(" ", "")
        return "api_key", ["# docker-compose.env", "PAPERLESS_DBHOST=db", "PAPERLESS_DBUSER=paperless", f"PAPERLESS_DBPASS={w}",
                           f"PAPERLESS_SECRET_KEY={v}", "PAPERLESS_OCR_LANGUAGE=deu+eng"], [v, w]
    if choice == 30:
        payload = {"client_name": "lena-laptop", "fingerprint": rand(rng, HEX, 64), "addresses": ["10.0.0.5:8443"],
                   "secret": rand(rng, HEX, 64), "expires_at": "0001-01-01T00:00:00Z"}
        v = base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
        return "api_key", ["$ incus config trust add lena-laptop", "Client lena-laptop certificate add token:", v], [v[90:]]
    if choice == 31:
        v = plain_password(rng).replace(" ", "")
        return "password", [f"$ sudo ejabberdctl register {user} chat.acme.io {v}", f"User {user}@chat.acme.io successfully registered"], [v]
    v = plain_password(rng).replace(" ", "")
    return "password", ["# ~/.nzbget/nzbget.conf", "ControlIP=0.0.0.0", "ControlPort=6789", "ControlUsername=nzbget", f"ControlPassword={v}",
                        "SecureControl=no"], [v]


def twentieth_negative_case(rng):
    choice = rng.randrange(18)
    if choice == 0:
        return ["$ sudo certbot certificates", "  Certificate Name: acme.io", f"    Serial Number: {rand(rng, HEX, 36)}", "    Key Type: ECDSA",
                "    Certificate Path: /etc/letsencrypt/live/acme.io/fullchain.pem"]
    if choice == 1:
        return ["$ etcdctl member list -w table"] + [f"| {rand(rng, HEX, 16)} | started | etcd-{i} | https://10.0.0.1{i}:2380 | false |" for i in range(1, 4)]
    if choice == 2:
        salt, digest = rand(rng, "./" + ALNUM, 22), rand(rng, "./" + ALNUM, 43)
        return ["$ head -1 shadow.txt", f"lena:$y$j9T${salt}${digest}:19700:0:99999:7:::", "$ john --show shadow.txt", "0 password hashes cracked, 1 left"]
    if choice == 3:
        bssid = ":".join(rand(rng, "0123456789ABCDEF", 2) for _ in range(6))
        return [" BSSID              PWR  Beacons    #Data, #/s  CH   MB   ENC CIPHER  AUTH ESSID",
                f" {bssid}  -42       {rng.randint(10, 99)}        3    0   6  360   WPA2 CCMP   PSK  HomeNet"]
    if choice == 4:
        return ["# zigbee2mqtt/configuration.yaml", "advanced:", "  pan_id: GENERATE", f"  ext_pan_id: [{', '.join(str(rng.randint(0, 255)) for _ in range(8))}]",
                "  network_key: GENERATE"]
    if choice == 5:
        return ["[", "  {", f'    "id": "{rand(rng, HEX, 16)}",', '    "type": "mqtt-broker",', '    "broker": "localhost",', '    "credentials": {}', "  }", "]"]
    if choice == 6:
        return ["$ cat ~/.signify/acme-release.pub", "untrusted comment: signify public key", base64.b64encode(b"Ed" + rng.randbytes(40)).decode()]
    if choice == 7:
        body = base64.b64encode(rng.randbytes(150)).decode()
        return ["$ cat /etc/nebula/host.crt", "-----BEGIN NEBULA CERTIFICATE-----", body[:64], body[64:128], body[128:], "-----END NEBULA CERTIFICATE-----"]
    if choice == 8:
        return ["$ dotnet nuget list source", "Registered Sources:", "  1.  nuget.org [Enabled]", "      https://api.nuget.org/v3/index.json",
                "  2.  acme [Enabled]", "      https://nuget.acme.io/v3/index.json"]
    if choice == 9:
        return ["[INFO] --- gpg:3.2.4:sign (sign-artifacts) @ shop ---", f"[INFO] Signer 'default' is signing 4 files with key {rand(rng, '0123456789ABCDEF', 16)}"]
    if choice == 10:
        return ["$ frpc status -c frpc.toml", "TCP", "NAME   STATUS   LOCAL_ADDR     PLUGIN  REMOTE_ADDR", "ssh    running  127.0.0.1:22           203.0.113.40:6000"]
    if choice == 11:
        return ["# authelia.env", "AUTHELIA_IDENTITY_VALIDATION_RESET_PASSWORD_JWT_SECRET_FILE=/run/secrets/jwt",
                "AUTHELIA_SESSION_SECRET_FILE=/run/secrets/session", "AUTHELIA_STORAGE_ENCRYPTION_KEY_FILE=/run/secrets/storage"]
    if choice == 12:
        return ["# docker-compose.env", "PAPERLESS_TIME_ZONE=Europe/Berlin", "PAPERLESS_SECRET_KEY=${PAPERLESS_SECRET_KEY}", "PAPERLESS_CONSUMER_POLLING=0"]
    if choice == 13:
        return ['$ curl https://push.acme.io/message -H "X-Gotify-Key: $GOTIFY_TOKEN" -F "title=Backup"',
                '{"id":' + str(rng.randint(10, 999)) + ',"appid":3,"message":"done","title":"Backup","priority":0,"date":"2026-11-28T10:12:44Z"}']
    if choice == 14:
        return ["$ sudo wpa_cli -i wlan0 status", f"bssid={':'.join(rand(rng, HEX, 2) for _ in range(6))}", "ssid=HomeNet", "pairwise_cipher=CCMP",
                "key_mgmt=WPA2-PSK", "wpa_state=COMPLETED"]
    if choice == 15:
        return ["$ sudo ejabberdctl registered_users chat.acme.io", "admin", "lena", "tomas"]
    if choice == 16:
        return ["$ jarsigner -verify -verbose app.apk | tail -3", f"  SHA-256 digest: {base64.b64encode(rng.randbytes(32)).decode()}", "jar verified."]
    return ["[10:42] /connect -tls irc.libera.chat 6697", "[10:42] -!- Irssi: Connection to irc.libera.chat established",
            f"[10:42] -!- Your host is tantalum.libera.chat[{rng.randint(1, 254)}.{rng.randint(1, 254)}.0.1/6697], running version solanum-1.0-dev"]


def twenty_first_secret_case(rng):
    """The twenty-first pool (`--pool twenty-first`): written after the twentieth pool had been
    through one round, before any rule was run on it, from places none of the twenty earlier pools
    has: proxychains' `socks5 HOST PORT user pass`, Squid's `cache_peer … login=user:pass`,
    HexChat's `servlist.conf` `P=`, BitlBee's `account add`, `sstpc --password`, hostapd's
    `sae_password=`, `etcdctl put KEY VALUE`, `redis-cli SET KEY VALUE`, `~/.boto`'s
    `gs_secret_access_key`, CouchDB's admin set by `curl -X PUT … -d '"…"'`, CouchDB's `[admins]`,
    Jetty's `realm.properties`, `tomcat-users.xml`, a GitHub Actions runner's `./config.sh --token`,
    an Azure Pipelines agent's `--auth pat --token`, `snyk auth`, `cargo login`, `conan remote login
    -p`, `nuget setapikey`, `choco apikey -k`, `expo login -p`, `ibmcloud login --apikey`, `aliyun
    configure set --access-key-secret`, `tccli configure set secretKey`, `duplicati-cli
    --passphrase=`, `veracrypt --password=`, eCryptfs' `passphrase_passwd=`, `esxcli system account
    add -p`, a Vagrantfile's `config.ssh.password`, OCI's `pass_phrase`, ActiveMQ's
    `users.properties` and `realm join --one-time-password=`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    pw = plain_password(rng).replace(" ", "")
    if choice == 0:
        return "password", ["$ tail -3 /etc/proxychains4.conf", "[ProxyList]", f"socks5  10.0.8.21  1080  {user}  {pw}"], [pw]
    if choice == 1:
        v = pw.replace(":", "")
        return "password", ["# /etc/squid/squid.conf", f"cache_peer proxy.acme.io parent 3128 0 no-query default login={user}:{v}",
                            "never_direct allow all"], [v]
    if choice == 2:
        return "password", ["$ grep -A4 N=Libera ~/.config/hexchat/servlist.conf", "N=Libera", f"I={user}", f"P={pw}", "S=irc.libera.chat/6697"], [pw]
    if choice == 3:
        return "password", [f"<@root> account add jabber {user}@jabber.acme.io {pw}", "<@root> Account successfully added with tag jabber"], [pw]
    if choice == 4:
        return "password", [f"$ sudo sstpc --cert-warn --user {user} --password {pw} vpn.acme.io usepeerdns require-mschap-v2 noauth",
                            "Nov 28 10:12:44 sstpc[4123]: Connected to vpn.acme.io"], [pw]
    if choice == 5:
        return "password", ["# /etc/hostapd/hostapd.conf", "ssid=HomeNet", "wpa=2", "wpa_key_mgmt=SAE", f"sae_password={pw}", "ieee80211w=2"], [pw]
    if choice == 6:
        return "password", [f"$ etcdctl put /config/shop/db_password '{pw}'", "OK"], [pw]
    if choice == 7:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f'127.0.0.1:6379> SET payment:api_key "{v}"', "OK", "127.0.0.1:6379> GET payment:currency", '"EUR"'], [v]
    if choice == 8:
        v = rand(rng, ALNUM + "/+", 40)
        return "api_key", ["$ cat ~/.boto", "[Credentials]", f"gs_access_key_id = GOOG1E{rand(rng, string.ascii_uppercase + string.digits, 54)}"[:80],
                           f"gs_secret_access_key = {v}"], [v]
    if choice == 9:
        return "password", [f"$ curl -X PUT http://127.0.0.1:5984/_node/_local/_config/admins/{user} -d '\"{pw}\"'", '""'], [pw]
    if choice == 10:
        return "password", ["$ sudo tail -3 /opt/couchdb/etc/local.ini", "[admins]", f"{user} = {pw}"], [pw]
    if choice == 11:
        return "password", ["# etc/realm.properties", f"{user}: {pw}, admin, user", "guest: OBF:1v2j1uum1xtv1zej1zer1xtn1uvk1v1v, user"], [pw]
    if choice == 12:
        return "password", ["<tomcat-users>", '  <role rolename="manager-script"/>', f'  <user username="{user}" password="{pw.replace(chr(38), "")}" roles="manager-script"/>',
                            "</tomcat-users>"], [pw.replace("&", "")]
    if choice == 13:
        v = rand(rng, string.ascii_uppercase + string.digits, 29)
        return "api_key", [f"$ ./config.sh --url https://github.com/acme/shop --token {v}", "√ Connected to GitHub", "# Runner Registration"], [v]
    if choice == 14:
        v = rand(rng, string.ascii_lowercase + string.digits, 52)
        return "api_key", ["$ ./config.sh --unattended --url https://dev.azure.com/acme --auth pat \\", f"    --token {v} --pool Default --agent build01"], [v]
    if choice == 15:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ snyk auth {v}", "Your account has been authenticated. Snyk is now ready to be used."], [v]
    if choice == 16:
        v = "cio" + rand(rng, ALNUM, 32)
        return "api_key", [f"$ cargo login {v}", "       Login token for `crates-io` saved"], [v]
    if choice == 17:
        return "password", [f"$ conan remote login acme {user} -p {pw}", f"Changed user of remote 'acme' from 'None' (anonymous) to '{user}' (authenticated)"], [pw]
    if choice == 18:
        v = "oy2" + rand(rng, string.ascii_lowercase + string.digits, 43)
        return "api_key", [f"C:\\> nuget setapikey {v} -Source https://api.nuget.org/v3/index.json",
                           "The API Key 'oy2…' was saved for the NuGet feed."], [v[3:]]
    if choice == 19:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"PS C:\\> choco apikey -k {v} -s https://push.chocolatey.org/", "Added ApiKey for https://push.chocolatey.org/"], [v]
    if choice == 20:
        return "password", [f"$ npx expo login -u {user} -p {pw}", f"Logged in as {user}"], [pw]
    if choice == 21:
        v = rand(rng, ALNUM + "_-", 44)
        return "api_key", [f"$ ibmcloud login --apikey {v} -r eu-de", "API endpoint: https://cloud.ibm.com", "Authenticating...", "OK"], [v]
    if choice == 22:
        v = rand(rng, ALNUM, 30)
        return "api_key", [f"$ aliyun configure set --profile default --mode AK --access-key-id LTAI{rand(rng, ALNUM, 20)} \\",
                           f"    --access-key-secret {v} --region cn-hangzhou", "Configure Done!!!"], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ tccli configure set secretId AKID{rand(rng, ALNUM, 32)} secretKey {v} region ap-guangzhou"], [v]
    if choice == 24:
        return "password", [f"$ duplicati-cli backup b2://acme-backup/laptop /home/{user} --passphrase={pw} --backup-name=laptop",
                            "Backup started at 11/28/2026 10:12:44"], [pw]
    if choice == 25:
        return "password", [f"$ veracrypt --text --mount ~/vault.hc /mnt/vault --password={pw} --pim=0 --keyfiles= --protect-hidden=no --non-interactive"], [pw]
    if choice == 26:
        v = pw.replace(",", "")
        return "password", [f"$ sudo mount -t ecryptfs /srv/private /srv/private -o key=passphrase:passphrase_passwd={v},ecryptfs_cipher=aes,ecryptfs_key_bytes=16",
                            "Mounted eCryptfs"], [v]
    if choice == 27:
        return "password", [f"[root@esx01:~] esxcli system account add -i svc_backup -p '{pw}' -c '{pw}' -d 'backup account'"], [pw]
    if choice == 28:
        return "password", ['Vagrant.configure("2") do |config|', '  config.vm.box = "debian/bookworm64"', '  config.ssh.username = "vagrant"',
                            f'  config.ssh.password = "{pw}"', "end"], [pw]
    if choice == 29:
        return "password", ["$ cat ~/.oci/config", "[DEFAULT]", f"user=ocid1.user.oc1..aaaa{rand(rng, string.ascii_lowercase + string.digits, 30)}",
                            "key_file=~/.oci/oci_api_key.pem", f"pass_phrase={pw}", "region=eu-frankfurt-1"], [pw]
    if choice == 30:
        return "password", ["$ cat conf/users.properties", "# user=password", f"admin={pw}", f"{user}={plain_password(rng).replace(' ', '')}"][:4], [pw]
    if choice == 31:
        v = rand(rng, ALNUM, 24)
        return "password", [f"$ sudo realm join --one-time-password={v} acme.io", " * Successfully enrolled machine in realm"], [v]
    v = rand(rng, ALNUM + "/+", 40)
    return "api_key", ["$ cat ~/.boto", "[Credentials]", f"aws_secret_access_key = {v}", "[Boto]", "https_validate_certificates = True"], [v]


def twenty_first_negative_case(rng):
    choice = rng.randrange(17)
    if choice == 0:
        return ["$ tail -3 /etc/proxychains4.conf", "[ProxyList]", "socks5  127.0.0.1  9050", "proxy_dns"]
    if choice == 1:
        return ["# /etc/squid/squid.conf", "cache_peer proxy.acme.io parent 3128 0 no-query default login=PASSTHRU", "never_direct allow all"]
    if choice == 2:
        return ["$ grep -A4 N=Libera ~/.config/hexchat/servlist.conf", "N=Libera", "E=UTF-8 (Unicode)", f"F={rng.randint(10, 40)}", "D=0", "S=irc.libera.chat/6697"]
    if choice == 3:
        return ["$ etcdctl get /config/shop/db_host", "/config/shop/db_host", "db01.acme.io:5432"]
    if choice == 4:
        return ["127.0.0.1:6379> GET session:count", f'"{rng.randint(100, 9999)}"', "127.0.0.1:6379> TTL session:abc", f"(integer) {rng.randint(10, 3600)}"]
    if choice == 5:
        return ["shop=# \\du", "                 List of roles", " Role name |  Attributes", "-----------+--------------", " app       | ", " postgres  | Superuser, Create role"]
    if choice == 6:
        return ["shop> db.getUsers()", "{", "  users: [", f"    {{ _id: 'shop.app', userId: UUID('{uuid.UUID(bytes=rng.randbytes(16))}'), user: 'app',",
                "      mechanisms: [ 'SCRAM-SHA-1', 'SCRAM-SHA-256' ] }", "  ]"]
    if choice == 7:
        return ["$ sudo tail -2 /opt/couchdb/etc/local.ini", "[admins]", f"admin = -pbkdf2-{rand(rng, HEX, 40)},{rand(rng, HEX, 32)},10"]
    if choice == 8:
        return ["<tomcat-users>", '  <user username="deploy" password="${DEPLOY_PASSWORD}" roles="manager-script"/>', "</tomcat-users>"]
    if choice == 9:
        return ["$ ./run.sh", "√ Connected to GitHub", f"Current runner version: '2.321.{rng.randint(0, 9)}'", "2026-11-28 10:12:44Z: Listening for Jobs"]
    if choice == 10:
        return ["$ snyk test", f"Tested {rng.randint(50, 400)} dependencies for known issues, found {rng.randint(0, 9)} issues, {rng.randint(0, 9)} vulnerable paths.",
                "Organization:      acme", "Package manager:   npm"]
    if choice == 11:
        return ["$ cargo publish", "   Uploading shop v0.3.1 (/home/lena/shop)", "   Published shop v0.3.1 at registry `crates-io`"]
    if choice == 12:
        return ["C:\\> nuget push shop.1.2.0.nupkg -Source https://api.nuget.org/v3/index.json", "Pushing shop.1.2.0.nupkg to 'https://www.nuget.org/api/v2/package'...",
                "Your package was pushed."]
    if choice == 13:
        return ["$ ibmcloud iam api-keys", "Name        Description   Created At                     ID",
                f"ci-deploy   CI            2026-11-0{rng.randint(1, 9)}T10:12+0000       ApiKey-{uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 14:
        return ["$ veracrypt --text --list", "1: /home/lena/vault.hc /dev/mapper/veracrypt1 /mnt/vault"]
    if choice == 15:
        return ["$ cat ~/.oci/config", "[DEFAULT]", f"fingerprint={':'.join(rand(rng, HEX, 2) for _ in range(16))}", "key_file=~/.oci/oci_api_key.pem",
                f"tenancy=ocid1.tenancy.oc1..aaaa{rand(rng, string.ascii_lowercase + string.digits, 30)}"]
    return ["$ realm list", "acme.io", "  type: kerberos", "  realm-name: ACME.IO", "  login-formats: %U@acme.io", "  configured: kerberos-member"]


def negative_case(rng):
    choice = rng.randrange(8)
    if choice == 0:
        lines = ["$ git log --oneline -4"]
        for _ in range(4):
            lines.append(f"{hashlib.sha1(rng.randbytes(8)).hexdigest()[:rng.choice([7, 40])]} "
                         + rng.choice(["Fix rounding in invoices", "Bump version to 2.4.1", "Add retry to uploads", "Merge branch 'main'"]))
        return lines
    if choice == 1:
        return ["$ sha256sum release.tar.gz", f"{hashlib.sha256(rng.randbytes(8)).hexdigest()}  release.tar.gz"]
    if choice == 2:
        return ["Request ID", str(uuid.UUID(bytes=rng.randbytes(16))), "Status 200 OK"]
    if choice == 3:
        return ["Order #" + f"{rng.randint(100, 999)}-{rng.randint(1000000, 9999999)}-{rng.randint(1000000, 9999999)}",
                "Tracking 1Z" + rand(rng, string.ascii_uppercase + string.digits, 16), f"Total ${rng.randint(10, 400)}.{rng.randint(10, 99)}"]
    if choice == 4:
        return ["ISBN 978-" + f"{rng.randint(0, 9)}-{rng.randint(100, 999)}-{rng.randint(10000, 99999)}-{rng.randint(0, 9)}",
                f"Call +1 (415) 555-{rng.randint(1000, 9999)} before {rng.randint(1, 28)} March 2025"]
    if choice == 5:
        return [f"$ docker run -p {rng.randint(3000, 9000)}:80 nginx:1.{rng.randint(20, 27)}.{rng.randint(0, 5)}",
                f"$ ssh -p {rng.randint(2000, 2999)} {rng.choice(['deploy', 'admin'])}@example.net"]
    if choice == 6:
        return ["Change password", "Password must be at least 12 characters", "Forgot password?", "Verification code sent"]
    return [f"Version {rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 99)} (build {rng.randint(10000, 99999)})",
            f"Invoice INV-{rng.randint(2020, 2026)}-{rng.randint(1000, 9999)} due {rng.randint(1, 28)}/{rng.randint(1, 12)}/2026"]


def twenty_second_secret_case(rng):
    """The twenty-second pool (`--pool twenty-second`): written after the twenty-first pool had been
    through a round, before any rule was run on it, from places none of the twenty-one earlier pools
    has: acme.sh's `CF_Key`, `hostapd_cli wps_pin`, `az keyvault secret show -o tsv`, a `DOTENV_KEY`,
    ZooKeeper's `addauth digest`, Cisco's `tacacs-server … key`, `radius-server … key` and `crypto
    isakmp key`, `adb … connect-network`, macOS' `networksetup -setairportnetwork`, `netsh wlan set
    hostednetwork … key=`, Sysinternals' Autologon, `op signin`'s session, `mmctl --access-token`,
    VLESS, Trojan and Hysteria 2 links, `hashcat --show` (MD5 and Kerberos), CrackMapExec's `[+]`
    line, `evil-winrm -p`, Impacket's `DOMAIN/user:password@host`, Hydra's found line, `microk8s
    join`, `rsyncd.secrets`, stunnel's PSK file, `pvk2pfx -pi`/`-po`, secretsdump's
    `DefaultPassword`, mimikatz' `Password :`, `smbmap -p`, WordPress' salts, `SSHPASS=` and iwd's
    `Passphrase=`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    pw = plain_password(rng).replace(" ", "")
    if choice == 0:
        v = rand(rng, HEX, 37)
        return "api_key", [f'$ export CF_Key="{v}"', '$ export CF_Email="ops@acme.io"', "$ acme.sh --issue --dns dns_cf -d acme.io -d '*.acme.io'"], [v]
    if choice == 1:
        v = f"{rng.randint(10000000, 99999999)}"
        return "password", [f"$ sudo hostapd_cli -i wlan0 wps_pin any {v}", v], [v]
    if choice == 2:
        return "password", ["$ az keyvault secret show --vault-name acme-kv --name db-password --query value -o tsv", pw,
                            "$ az keyvault secret show --vault-name acme-kv --name db-host --query value -o tsv", "db01.acme.io"], [pw]
    if choice == 3:
        v = rand(rng, HEX, 64)
        return "api_key", [f'DOTENV_KEY="dotenv://:key_{v}@dotenv.org/vault/.env.vault?environment=production"'], [v]
    if choice == 4:
        v = pw.replace(",", "")
        return "password", ["[zk: localhost:2181(CONNECTED) 0] addauth digest " + f"{user}:{v}", "[zk: localhost:2181(CONNECTED) 1] ls /app"], [v]
    if choice == 5:
        return "password", ["router#show running-config | include tacacs", f"tacacs-server host 10.0.0.5 key 0 {pw}", "tacacs-server directed-request"], [pw]
    if choice == 6:
        return "password", ["switch(config)# radius-server host 10.0.0.6 auth-port 1812 acct-port 1813 key " + pw, "switch(config)# aaa new-model"], [pw]
    if choice == 7:
        return "password", ["crypto isakmp policy 10", " encryption aes 256", " authentication pre-share", " group 14",
                            f"crypto isakmp key {pw} address 203.0.113.7"], [pw]
    if choice == 8:
        return "password", [f"$ adb shell cmd wifi connect-network HomeNet wpa2 {pw}", "Connection initiated"], [pw]
    if choice == 9:
        return "password", [f"$ networksetup -setairportnetwork en0 HomeNet {pw}", "$ networksetup -getairportnetwork en0", "Current Wi-Fi Network: HomeNet"], [pw]
    if choice == 10:
        return "password", [f"C:\\> netsh wlan set hostednetwork mode=allow ssid=Hotspot key={pw}", "The hosted network mode has been set to allow.",
                            "The SSID of the hosted network has been successfully changed."], [pw]
    if choice == 11:
        return "password", [f"C:\\Tools> Autologon64.exe {user} ACME {pw} /accepteula", "Autologon successfully configured."], [pw]
    if choice == 12:
        v = rand(rng, ALNUM + "_-", 43)
        return "api_key", ["$ op signin --account acme", f'export OP_SESSION_acme="{v}"', "# This command is meant to be used with your shell's eval function."], [v]
    if choice == 13:
        v = rand(rng, string.ascii_lowercase + string.digits, 26)
        return "api_key", [f"$ mmctl auth login https://chat.acme.io --name acme --access-token {v}", f"credentials for \"acme\": \"{user}@https://chat.acme.io\" stored"], [v]
    if choice == 14:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"vless://{v}@vpn.acme.io:443?encryption=none&security=reality&sni=www.microsoft.com&fp=chrome&type=tcp#acme-nl"], [v]
    if choice == 15:
        v = pw.replace("#", "").replace("?", "").replace("&", "")
        return "password", [f"trojan://{v}@vpn.acme.io:443?security=tls&sni=vpn.acme.io&type=tcp#acme-de"], [v]
    if choice == 16:
        v = pw.replace("#", "").replace("?", "").replace("&", "")
        return "password", [f"hysteria2://{v}@vpn.acme.io:8443/?sni=vpn.acme.io&insecure=0#acme-fi"], [v]
    if choice == 17:
        v = pw.replace(":", "")
        return "password", ["$ hashcat -m 0 hashes.txt --show", f"{hashlib.md5(v.encode()).hexdigest()}:{v}"], [v]
    if choice == 18:
        v = pw.replace(":", "")
        return "password", ["$ hashcat -m 13100 kerberoast.txt --show | cut -c1-60,900-",
                            f"$krb5tgs$23$*svc_sql$ACME.IO$MSSQLSvc/db01*${rand(rng, HEX, 32)}$...{rand(rng, HEX, 12)}:{v}"], [v]
    if choice == 19:
        return "password", [f"$ crackmapexec smb 10.0.8.0/24 -u {user} -p passwords.txt",
                            "SMB  10.0.8.21  445  WS01  [*] Windows 10.0 Build 19041 x64 (name:WS01) (domain:ACME)",
                            f"SMB  10.0.8.21  445  WS01  [+] ACME\\{user}:{pw} (Pwn3d!)"], [pw]
    if choice == 20:
        return "password", [f"$ evil-winrm -i 10.0.8.21 -u {user} -p '{pw}'", "Evil-WinRM shell v3.5", "*Evil-WinRM* PS C:\\Users\\" + user + "\\Documents>"], [pw]
    if choice == 21:
        v = pw.replace("@", "").replace("'", "")
        return "password", [f"$ impacket-psexec 'ACME/{user}:{v}@10.0.8.21'", "Impacket v0.12.0 - Copyright Fortra, LLC and its affiliated companies",
                            "[*] Requesting shares on 10.0.8.21....."], [v]
    if choice == 22:
        return "password", ["$ hydra -l admin -P rockyou.txt ssh://10.0.8.21", "[DATA] attacking ssh://10.0.8.21:22/",
                            f"[22][ssh] host: 10.0.8.21   login: admin   password: {pw}", "1 of 1 target successfully completed, 1 valid password found"], [pw]
    if choice == 23:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ microk8s add-node", "From the node you wish to join to this cluster, run the following:",
                           f"microk8s join 10.0.8.21:25000/{v}/{rand(rng, HEX, 12)}"], [v]
    if choice == 24:
        return "password", ["$ sudo cat /etc/rsyncd.secrets", f"{user}:{pw.replace(':', '')}", f"backup:{plain_password(rng).replace(' ', '').replace(':', '')}"], [pw.replace(":", "")]
    if choice == 25:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ sudo cat /etc/stunnel/psk.txt", f"client1:{v}"], [v]
    if choice == 26:
        return "password", [f"C:\\> pvk2pfx -pvk acme.pvk -pi {pw} -spc acme.spc -pfx acme.pfx -po {pw}"], [pw]
    if choice == 27:
        return "password", ["$ impacket-secretsdump ACME/admin@10.0.8.21 -just-dc-user krbtgt", "[*] Dumping LSA Secrets", "[*] DefaultPassword",
                            f"(Unknown User):{pw}"], [pw]
    if choice == 28:
        return "password", ["mimikatz # sekurlsa::logonpasswords", "         * Username : " + user, "         * Domain   : ACME", f"         * Password : {pw}"], [pw]
    if choice == 29:
        return "password", [f"$ smbmap -H 10.0.8.21 -u {user} -p '{pw}' -d ACME", "[+] IP: 10.0.8.21:445  Name: ws01.acme.io"], [pw]
    if choice == 30:
        v = "".join(rng.choice(string.ascii_letters + string.digits + "!@#$%^&*()-_[]{}<>~+=,.;:/?|") for _ in range(64))
        return "api_key", ["// wp-config.php", f"define( 'NONCE_SALT',       '{v}' );", "define( 'WP_DEBUG', false );"], [v]
    if choice == 31:
        return "password", [f"$ export SSHPASS='{pw}'", f"$ sshpass -e ssh {user}@{host} uptime"], [pw]
    return "password", ["$ sudo cat /var/lib/iwd/HomeNet.psk", "[Security]", f"Passphrase={pw}", "[Settings]", "AutoConnect=true"], [pw]


def twenty_second_negative_case(rng):
    choice = rng.randrange(17)
    if choice == 0:
        return ["crypto isakmp policy 10", " encryption aes 256", " hash sha256", " authentication pre-share", f" group {rng.choice([14, 19, 20])}", " lifetime 86400"]
    if choice == 1:
        return ["$ op whoami", f"URL:          https://acme.1password.com", "Email:        ops@acme.io", f"User ID:      {rand(rng, string.ascii_uppercase + string.digits, 26)}"]
    if choice == 2:
        return ["$ networksetup -getairportnetwork en0", "Current Wi-Fi Network: HomeNet", "$ networksetup -getairportpower en0", "Wi-Fi Power (en0): On"]
    if choice == 3:
        return ["C:\\> netsh wlan show hostednetwork", "Hosted network settings", "    Mode                   : Allowed", '    SSID name              : "Hotspot"',
                "    Max number of clients  : 100", "    Authentication         : WPA2-Personal"]
    if choice == 4:
        return ["$ hashcat -b -m 0", f"Speed.#1.........: {rng.randint(1000, 60000)}.{rng.randint(0, 9)} MH/s (50.12ms) @ Accel:1024 Loops:1024 Thr:64 Vec:1"]
    if choice == 5:
        return ["$ crackmapexec smb 10.0.8.0/24", f"SMB  10.0.8.{rng.randint(2, 250)}  445  WS01  [*] Windows 10.0 Build 19041 x64 (name:WS01) (domain:ACME) (signing:False) (SMBv1:False)"]
    if choice == 6:
        return ["$ microk8s status", "microk8s is running", "high-availability: no", "  datastore master nodes: 127.0.0.1:19001"]
    if choice == 7:
        return ["$ az keyvault secret list --vault-name acme-kv --query '[].id' -o tsv", "https://acme-kv.vault.azure.net/secrets/db-host",
                "https://acme-kv.vault.azure.net/secrets/db-password"]
    if choice == 8:
        return ["[zk: localhost:2181(CONNECTED) 2] getAcl /app", f"'digest,'admin:{base64.b64encode(rng.randbytes(20)).decode()}", ": cdrwa"]
    if choice == 9:
        return ["$ hydra -l admin -P rockyou.txt ssh://10.0.8.21",
                f"[DATA] max 16 tasks per 1 server, overall 16 tasks, {rng.randint(1000000, 14344399)} login tries (l:1/p:{rng.randint(1000000, 14344399)})"]
    if choice == 10:
        return ["# /etc/rsyncd.conf", "[backup]", "    path = /srv/backup", "    auth users = backup", "    secrets file = /etc/rsyncd.secrets"]
    if choice == 11:
        return ["# /etc/stunnel/stunnel.conf", "[redis]", "client = yes", "accept = 127.0.0.1:6380", "connect = 10.0.8.21:6379", "PSKidentity = client1",
                "PSKsecrets = /etc/stunnel/psk.txt"]
    if choice == 12:
        return ["// wp-config.php", "define( 'DB_HOST', 'localhost' );", "define( 'DB_CHARSET', 'utf8mb4' );", f"$table_prefix = 'wp{rng.randint(10, 99)}_';"]
    if choice == 13:
        return ["mimikatz # sekurlsa::logonpasswords", f"Authentication Id : 0 ; {rng.randint(900, 99999)} (00000000:{rand(rng, HEX, 8)})",
                "Session           : Service from 0", "User Name         : WS01$", "         * Password : (null)"]
    if choice == 14:
        return ["$ impacket-secretsdump ACME/admin@10.0.8.21", "[*] Service RemoteRegistry is in stopped state", "[*] Starting service RemoteRegistry",
                "[*] Cleaning up..."]
    if choice == 15:
        return ["$ adb devices", "List of devices attached", f"{rand(rng, string.ascii_uppercase + string.digits, 12)}\tdevice"]
    return ["$ sudo cat /var/lib/iwd/HomeNet.8021x", "[Security]", "EAP-Method=PEAP", "EAP-Identity=anonymous@acme.io", "EAP-PEAP-Phase2-Method=MSCHAPV2"]


def twenty_third_secret_case(rng):
    """The twenty-third pool (`--pool twenty-third`): written after the twenty-second pool had been
    through two rounds, before any rule was run on it, from places none of the twenty-two earlier
    pools has. Many are source code that passes a password as a plain argument, with no label
    before it (PHP's `new PDO(…)` and `mysqli_connect(…)`, Java's `DriverManager.getConnection`,
    Go's `sql.Open` DSN, Arduino's `WiFi.begin`, Paho's `username_pw_set`, Ruby's `Net::SMTP.start`,
    PowerShell's `-Headers @{Authorization = …}`); the rest: MikroTik's `/user add`, an
    `autounattend.xml` `<Value>`, HTTPie's `Authorization:"Bearer …"`, `artisan key:generate
    --show`, `couchbase-cli --cluster-password`, Kibana's `encryptionKey`, an autofs CIFS map,
    Tomcat's `keystorePass`, `ktpass /pass`, `npm token create`'s table, libvirt's VNC `passwd=`,
    EdgeOS' `plaintext-password`, `rcon_password`, QEMU's `-spice password=`, `stripe login
    --api-key`, TeamSpeak's first start, `.terraformrc`'s token, Cisco's `username … password 0`,
    `vncpasswd -f`, `swaks --auth-password`, an SMTP session's `AUTH PLAIN`, curl's `smtps://`
    with `--user`, Django's `EMAIL_HOST_PASSWORD`, `spring.mail.password`, SqlPackage's
    `/SourcePassword:`, `drush user:password`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "")
    if choice == 0:
        return "password", [f"[admin@MikroTik] > /user add name={user} password={pw} group=full", "[admin@MikroTik] > /user print"], [pw]
    if choice == 1:
        v = pw.replace("<", "").replace(">", "").replace("&", "")
        return "password", ["<UserAccounts>", "  <AdministratorPassword>", f"    <Value>{v}</Value>", "    <PlainText>true</PlainText>",
                            "  </AdministratorPassword>", "</UserAccounts>"], [v]
    if choice == 2:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f'$ http GET https://api.acme.io/v1/me Authorization:"Bearer {v}"', "HTTP/1.1 200 OK", "Content-Type: application/json"], [v]
    if choice == 3:
        v = "base64:" + base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ php artisan key:generate --show", v], [v[7:]]
    if choice == 4:
        return "password", ["$ couchbase-cli cluster-init -c localhost --cluster-username Administrator \\", f"    --cluster-password '{pw}' --services data,index,query"], [pw]
    if choice == 5:
        v = rand(rng, HEX, 32)
        return "api_key", ["# kibana.yml", "server.host: \"0.0.0.0\"", f"xpack.encryptedSavedObjects.encryptionKey: {v}", "xpack.reporting.enabled: true"], [v]
    if choice == 6:
        v = pw.replace(",", "")
        return "password", ["$ cat /etc/auto.nas", f"share  -fstype=cifs,rw,username={user},password={v}  ://nas.home/share"], [v]
    if choice == 7:
        v = pw.replace("<", "").replace(">", "").replace("&", "")
        return "password", ['<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true"', '           keystoreFile="conf/acme.jks"', f'           keystorePass="{v}" />'], [v]
    if choice == 8:
        return "password", [f"C:\\> ktpass /princ HTTP/web.acme.io@ACME.IO /mapuser ACME\\svc_web /pass {pw} /crypto AES256-SHA1 /out web.keytab",
                            "Targeting domain controller: dc01.acme.io"], [pw]
    if choice == 9:
        v = "npm_" + rand(rng, ALNUM, 36)
        return "api_key", ["$ npm token create", "┌────────────────┬──────────────────────────────────────────┐", f"│ token          │ {v} │",
                           "│ readonly       │ false                                    │", "└────────────────┴──────────────────────────────────────────┘"], [v]
    if choice == 10:
        v = pw.replace("<", "").replace(">", "").replace("&", "")[:8]
        return "password", ["$ virsh dumpxml web01 | grep graphics", f"    <graphics type='vnc' port='-1' autoport='yes' passwd='{v}'/>"], [v]
    if choice == 11:
        return "password", ["configure", f"set system login user {user} authentication plaintext-password {pw}", "commit ; save"], [pw]
    if choice == 12:
        return "password", ["// server.cfg", 'hostname "ACME CS2"', f'rcon_password "{pw}"', 'sv_password ""'], [pw]
    if choice == 13:
        v = pw.replace(",", "")
        return "password", [f"$ qemu-system-x86_64 -m 4096 -hda win11.qcow2 -spice port=5930,password={v} -vga qxl"], [v]
    if choice == 14:
        v = "sk_test_" + rand(rng, ALNUM, 99)
        return "api_key", [f"$ stripe login --api-key {v}", "> Done! The Stripe CLI is configured"], [v]
    if choice == 15:
        v = rand(rng, ALNUM + "+", 40)
        return "password", ["------------------------------------------------------------------", "                      I M P O R T A N T",
                            "------------------------------------------------------------------", "               Server Query Admin Account created",
                            f'         loginname= "serveradmin", password= "{pw}"', f"         apikey= \"{v}\""], [pw, v]
    if choice == 16:
        v = rand(rng, ALNUM, 14) + ".atlasv1." + rand(rng, ALNUM, 67)
        return "api_key", ["$ cat ~/.terraformrc", 'credentials "app.terraform.io" {', f'  token = "{v}"', "}"], [v]
    if choice == 17:
        return "password", ["switch# show running-config | include username", f"username {user} privilege 15 password 0 {pw}"], [pw]
    if choice == 18:
        v = pw.replace("'", "")[:8]
        return "password", [f"$ echo '{v}' | vncpasswd -f > ~/.vnc/passwd", "$ chmod 600 ~/.vnc/passwd"], [v]
    if choice == 19:
        return "password", [f"$ swaks --to bo@acme.io --server smtp.acme.io:587 --tls --auth LOGIN --auth-user {user}@acme.io --auth-password '{pw}'",
                            "=== Trying smtp.acme.io:587..."], [pw]
    if choice == 20:
        v = base64.b64encode(f"\0{user}@acme.io\0{pw}".encode()).decode()
        return "password", ["$ openssl s_client -starttls smtp -connect smtp.acme.io:587 -quiet", "250 SMTPUTF8", f"AUTH PLAIN {v}",
                            "235 2.7.0 Authentication successful"], [v]
    if choice == 21:
        return "password", ["$ curl --url 'smtps://smtp.acme.io:465' --ssl-reqd \\", f"    --mail-from {user}@acme.io --mail-rcpt bo@acme.io \\",
                            f"    --user '{user}@acme.io:{pw}' -T mail.txt"], [pw]
    if choice == 22:
        return "password", ["# settings.py", "EMAIL_HOST = 'smtp.acme.io'", "EMAIL_PORT = 587", f"EMAIL_HOST_USER = '{user}@acme.io'", f"EMAIL_HOST_PASSWORD = '{pw}'"], [pw]
    if choice == 23:
        return "password", ["# application.properties", "spring.mail.host=smtp.acme.io", f"spring.mail.username={user}@acme.io", f"spring.mail.password={pw}"], [pw]
    if choice == 24:
        return "password", ["<?php", "$dsn = 'mysql:host=localhost;dbname=shop;charset=utf8mb4';", f"$db = new PDO($dsn, '{user}', '{pw}');"], [pw]
    if choice == 25:
        return "password", ["<?php", f'$link = mysqli_connect("localhost", "{user}", "{pw}", "shop");', "if (!$link) { die(mysqli_connect_error()); }"], [pw]
    if choice == 26:
        return "password", ["Connection conn = DriverManager.getConnection(", '        "jdbc:postgresql://db-03.internal:5432/shop",', f'        "{user}", "{pw}");'], [pw]
    if choice == 27:
        v = pw.replace("(", "").replace(")", "")
        return "password", [f'db, err := sql.Open("mysql", "{user}:{v}@tcp(db-03.internal:3306)/shop?parseTime=true")', "if err != nil {", "    log.Fatal(err)", "}"], [v]
    if choice == 28:
        return "password", ["void setup() {", "  Serial.begin(115200);", f'  WiFi.begin("HomeNet", "{pw}");', "  while (WiFi.status() != WL_CONNECTED) delay(500);", "}"], [pw]
    if choice == 29:
        return "password", ["client = mqtt.Client(client_id=\"sensor-42\")", f'client.username_pw_set("{user}", "{pw}")', 'client.connect("mqtt.acme.io", 1883)'], [pw]
    if choice == 30:
        return "password", [f"Net::SMTP.start('smtp.acme.io', 587, 'acme.io', '{user}', '{pw}', :login) do |smtp|", "  smtp.send_message(message, from, to)", "end"], [pw]
    if choice == 31:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f'PS C:\\> Invoke-WebRequest -Uri https://api.acme.io/v1/builds -Headers @{{Authorization = "Bearer {v}"}}', "StatusCode        : 200"], [v]
    if choice == 32:
        return "password", [f"C:\\> SqlPackage /Action:Export /SourceServerName:db01 /SourceDatabaseName:shop /SourceUser:{user} /SourcePassword:{pw} /TargetFile:shop.bacpac"], [pw]
    return "password", [f'$ drush user:password {user} "{pw}"', f"[success] Changed password for {user}."], [pw]


def twenty_third_negative_case(rng):
    choice = rng.randrange(17)
    if choice == 0:
        return ["<?php", "$dsn = getenv('DB_DSN');", "$db = new PDO($dsn, getenv('DB_USER'), getenv('DB_PASS'));"]
    if choice == 1:
        return ["<?php", '$link = mysqli_connect($host, $user, $pass, "shop");', "if (!$link) { die(mysqli_connect_error()); }"]
    if choice == 2:
        return ["void setup() {", "  Serial.begin(115200);", "  WiFi.begin(ssid, password);", "}"]
    if choice == 3:
        return ['client = mqtt.Client(client_id="sensor-42")', "client.username_pw_set(MQTT_USER, MQTT_PASSWORD)", 'client.connect("mqtt.acme.io", 1883)']
    if choice == 4:
        return ["Connection conn = DriverManager.getConnection(url, user, password);", "Statement st = conn.createStatement();"]
    if choice == 5:
        return ['db, err := sql.Open("mysql", dsn)', "if err != nil {", "    log.Fatal(err)", "}"]
    if choice == 6:
        return ["$ php artisan key:generate", "   INFO  Application key set successfully."]
    if choice == 7:
        return ["$ npm token list", "┌────────┬─────────┬────────────┬──────────┐", "│ id     │ token   │ created    │ readonly │",
                f"│ {rand(rng, HEX, 6)} │ npm_{rand(rng, ALNUM, 2)}… │ 2026-11-0{rng.randint(1, 9)} │ no       │", "└────────┴─────────┴────────────┴──────────┘"]
    if choice == 8:
        return ["# kibana.yml", "xpack.encryptedSavedObjects.encryptionKey: ${KIBANA_ENCRYPTION_KEY}", "xpack.reporting.enabled: true"]
    if choice == 9:
        return ['<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true"', '           keystoreFile="${catalina.base}/conf/acme.jks"', '           keystorePass="${keystore.password}" />']
    if choice == 10:
        return ["show configuration system login", f"user ana {{ authentication {{ encrypted-password \"$6${rand(rng, ALNUM, 8)}${rand(rng, ALNUM + './', 86)}\" }} }}"]
    if choice == 11:
        return ["$ swaks --to bo@acme.io --server smtp.acme.io --quit-after RCPT", "=== Connected to smtp.acme.io."]
    if choice == 12:
        return ["$ openssl s_client -starttls smtp -connect smtp.acme.io:587 -quiet", "250-smtp.acme.io", "250-AUTH PLAIN LOGIN XOAUTH2", "250 SMTPUTF8"]
    if choice == 13:
        return ["// server.cfg", 'hostname "ACME CS2"', 'rcon_password ""', 'sv_password ""', f"sv_maxrate {rng.choice([0, 128000, 786432])}"]
    if choice == 14:
        return ["$ virsh dumpxml web01 | grep graphics", "    <graphics type='spice' autoport='yes' listen='127.0.0.1'/>"]
    if choice == 15:
        return ["C:\\> ktpass /princ HTTP/web.acme.io@ACME.IO /mapuser ACME\\svc_web +rndPass /crypto AES256-SHA1 /ptype KRB5_NT_PRINCIPAL /out web.keytab"]
    return ["$ cat ~/.terraformrc", 'plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"', "disable_checkpoint = true"]


def twenty_fourth_secret_case(rng):
    """The twenty-fourth pool (`--pool twenty-fourth`): written after the twenty-third pool had been
    through two rounds, before any rule was run on it, from places none of the twenty-three earlier
    pools has: Bundler's `config set` of a host's `user:password`, sbt's `Credentials(…)`, Hatch's
    `publish -a`, a Mosquitto bridge's `remote_password`, nslcd's `bindpw`, SQL Server's
    `sp_addlogin`, WildFly's `add-user.sh`, Exim's `passwd.client`, sSMTP's `AuthPass`, `openssl
    passwd` given the password, Junos' SNMPv3 `authentication-password`, `ntp.keys`, `chrony.keys`,
    Knot's `keymgr` TSIG key, BIND's TSIG `secret`, `dotnet user-secrets set` and `list`, apt's
    proxy, `.curlrc`'s `proxy-user`, Postfix's `static:` SASL map, `doveadm pw -p`, a Forgejo
    runner's registration token, PgBouncer's `userlist.txt`, Dovecot's `{PLAIN}` passwd-file, RMAN's
    `target sys/…@`, `ncat --proxy-auth`, a router page's Pre-Shared Key, `openssl … -passin pass:`,
    vsftpd's virtual users file (a name line, then its password line), Redis' `sentinel
    auth-pass`, a Gradle `signing.password`, `keepassxc-cli` showing an entry."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "")
    if choice == 0:
        return "password", [f"$ bundle config set --global gems.acme.io {user}:{pw}", "$ bundle install"], [pw]
    if choice == 1:
        return "password", ["// ~/.sbt/1.0/credentials.sbt",
                            f'credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.acme.io", "{user}", "{pw}")'], [pw]
    if choice == 2:
        v = "pypi-AgEIcHlwaS5vcmc" + rand(rng, ALNUM + "-_", 60)
        return "api_key", [f"$ hatch publish -u __token__ -a {v}", "dist/acme-1.4.0.tar.gz ... success"], [v]
    if choice == 3:
        return "password", ["# /etc/mosquitto/conf.d/bridge.conf", "connection cloud", "address mqtt.acme.io:8883",
                            f"remote_username {user}", f"remote_password {pw}", "topic sensors/# out 1"], [pw]
    if choice == 4:
        return "password", ["# /etc/nslcd.conf", "uri ldap://ldap.acme.io/", "base dc=acme,dc=io",
                            "binddn cn=reader,dc=acme,dc=io", f"bindpw {pw}"], [pw]
    if choice == 5:
        return "password", ["1> EXEC sp_addlogin 'reporting', '" + pw + "', 'shop';", "2> GO"], [pw]
    if choice == 6:
        return "password", [f"$ ./bin/add-user.sh -u {user} -p '{pw}' -g admin",
                            f"Added user '{user}' to file '/opt/wildfly/standalone/configuration/mgmt-users.properties'"], [pw]
    if choice == 7:
        return "password", ["$ sudo cat /etc/exim4/passwd.client", "# password file used when the local exim is authenticating to a remote host",
                            f"*.mail.acme.io:{user}@acme.io:{pw}"], [pw]
    if choice == 8:
        return "password", ["$ sudo cat /etc/ssmtp/ssmtp.conf", "mailhub=smtp.acme.io:587", f"AuthUser={user}@acme.io",
                            f"AuthPass={pw}", "UseSTARTTLS=YES"], [pw]
    if choice == 9:
        salt = rand(rng, ALNUM, 16)
        return "password", [f"$ openssl passwd -6 -salt {salt} '{pw}'", f"$6${salt}${rand(rng, ALNUM + './', 86)}"], [pw]
    if choice == 10:
        return "password", ["[edit]", f"ana@srx# set snmp v3 usm local-engine user monitor authentication-sha authentication-password {pw}"], [pw]
    if choice == 11:
        v = rand(rng, HEX, 40)
        w = rand(rng, string.ascii_letters + string.digits, 16)
        return "api_key", ["$ sudo cat /etc/ntp.keys", "# keyid type key", f"1 SHA1 {v}", f"2 MD5 {w}"], [v, w]
    if choice == 12:
        v = rand(rng, HEX, 64).upper()
        return "api_key", ["$ sudo cat /etc/chrony.keys", f"1 SHA256 HEX:{v}"], [v]
    if choice == 13:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ keymgr -t xfer hmac-sha256", "key:", "  - id: xfer", "    algorithm: hmac-sha256", f"    secret: {v}"], [v]
    if choice == 14:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["$ tsig-keygen -a hmac-sha512 xfer", 'key "xfer" {', "\talgorithm hmac-sha512;", f'\tsecret "{v}";', "};"], [v]
    if choice == 15:
        return "password", [f'$ dotnet user-secrets set "Smtp:Password" "{pw}"', f"Successfully saved Smtp:Password = {pw} to the secret store."], [pw]
    if choice == 16:
        return "password", ["$ dotnet user-secrets list", "Smtp:Host = smtp.acme.io", f"Smtp:Password = {pw}", "Smtp:Port = 587"], [pw]
    if choice == 17:
        return "password", ["$ cat /etc/apt/apt.conf.d/95proxy", f'Acquire::http::Proxy "http://{user}:{pw}@proxy.acme.io:3128/";'], [pw]
    if choice == 18:
        return "password", ["$ cat ~/.curlrc", "proxy = proxy.acme.io:3128", f'proxy-user = "{user}:{pw}"'], [pw]
    if choice == 19:
        return "password", ["$ postconf -n | grep sasl", "smtp_sasl_auth_enable = yes",
                            f"smtp_sasl_password_maps = static:{user}@acme.io:{pw}", "smtp_sasl_security_options = noanonymous"], [pw]
    if choice == 20:
        return "password", [f"$ doveadm pw -s SHA512-CRYPT -p '{pw}'", f"{{SHA512-CRYPT}}$6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}"], [pw]
    if choice == 21:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ forgejo-runner register --no-interactive --instance https://git.acme.io --token {v} --name runner-01",
                           "INFO Runner registered successfully."], [v]
    if choice == 22:
        return "password", ["$ sudo cat /etc/pgbouncer/userlist.txt", f'"{user}" "{pw}"', f'"stats" "md5{rand(rng, HEX, 32)}"'], [pw]
    if choice == 23:
        return "password", ["$ sudo cat /etc/dovecot/users", f"{user}@acme.io:{{PLAIN}}{pw}::::::"], [pw]
    if choice == 24:
        return "password", [f"$ rman target sys/{pw}@ORCL", "Recovery Manager: Release 19.0.0.0.0 - Production",
                            "connected to target database: ORCL (DBID=1622392380)"], [pw]
    if choice == 25:
        return "password", [f"$ ncat --proxy proxy.acme.io:3128 --proxy-type http --proxy-auth {user}:{pw} {host} 22"], [pw]
    if choice == 26:
        return "password", ["Wireless Security", "Security Mode:     WPA2-PSK [AES]", f"Pre-Shared Key:    {pw}",
                            "Group Key Update Interval:   3600 seconds"], [pw]
    if choice == 27:
        return "password", [f"$ openssl rsa -in server.key -passin pass:{pw} -out server.nopass.key", "writing RSA key"], [pw]
    if choice == 28:
        return "password", ["$ sudo cat /etc/vsftpd/virtual_users.txt", user, pw, "guest", f"{rand(rng, ALNUM, 12)}"], [pw]
    if choice == 29:
        return "password", ["# /etc/redis/sentinel.conf", "sentinel monitor mymaster 10.0.8.21 6379 2", f"sentinel auth-pass mymaster {pw}",
                            "sentinel down-after-milliseconds mymaster 5000"], [pw]
    if choice == 30:
        return "password", ["$ cat ~/.gradle/gradle.properties", "signing.keyId=24875D73", f"signing.password={pw}",
                            "signing.secretKeyRingFile=/home/ci/.gnupg/secring.gpg"], [pw]
    if choice == 31:
        return "password", ["$ keepassxc-cli show -s Passwords.kdbx shop/db", "Title: db", f"UserName: {user}", f"Password: {pw}",
                            "URL: https://db.acme.io"], [pw]
    return "password", ["$ sudo cat /etc/exim4/passwd.client", f"smtp.acme.io:{user}:{pw}"], [pw]


def twenty_fourth_negative_case(rng):
    choice = rng.randrange(20)
    if choice == 0:
        return ["$ bundle config set --global gems.acme.io ${GEMS_CREDENTIALS}", "$ bundle config get gems.acme.io",
                "Settings for `gems.acme.io` in order of priority. The top value will be used", "Set for the current user: [REDACTED]"]
    if choice == 1:
        return ["// build.sbt", 'credentials += Credentials(Path.userHome / ".sbt" / ".credentials")', 'publishTo := Some("releases" at "https://nexus.acme.io/")']
    if choice == 2:
        return ["$ hatch publish", "Enter your username [__token__]: ", "dist/acme-1.4.0.tar.gz ... already exists"]
    if choice == 3:
        return ["# /etc/mosquitto/conf.d/bridge.conf", "connection cloud", "address mqtt.acme.io:8883", "bridge_cafile /etc/mosquitto/ca.crt",
                "remote_clientid sensor-42"]
    if choice == 4:
        return ["# /etc/nslcd.conf", "uri ldap://ldap.acme.io/", "base dc=acme,dc=io", "tls_reqcert demand", "tls_cacertfile /etc/ssl/certs/ca.pem"]
    if choice == 5:
        return ["1> EXEC sp_addlogin @loginame = @name, @passwd = @pw, @defdb = 'shop';", "2> GO"]
    if choice == 6:
        return ["$ ./bin/add-user.sh", "What type of user do you wish to add?", " a) Management User (mgmt-users.properties)", " b) Application User (application-users.properties)"]
    if choice == 7:
        return ["$ sudo cat /etc/exim4/passwd.client", "# password file used when the local exim is authenticating to a remote host",
                "# target.mail.server.example:login:password"]
    if choice == 8:
        return ["$ sudo cat /etc/ssmtp/ssmtp.conf", "mailhub=smtp.acme.io:587", "FromLineOverride=YES", "UseSTARTTLS=YES"]
    if choice == 9:
        return ["$ openssl passwd -6 -stdin < /run/secrets/new_password", f"$6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}"]
    if choice == 10:
        return ["# /etc/ntp.conf", "keys /etc/ntp.keys", "trustedkey 1 2", "controlkey 1", "requestkey 1"]
    if choice == 11:
        return ["$ nsupdate -k /etc/bind/ddns.key update.txt", "; TSIG error with server: tsig verify failure"]
    if choice == 12:
        return ["$ dotnet user-secrets init", f"Set UserSecretsId to '{uuid.UUID(bytes=rng.randbytes(16))}' for MSBuild project '/src/Shop/Shop.csproj'."]
    if choice == 13:
        return ["$ cat /etc/apt/apt.conf.d/95proxy", 'Acquire::http::Proxy "http://proxy.acme.io:3128/";', 'Acquire::https::Proxy "DIRECT";']
    if choice == 14:
        return ["$ postconf -n | grep sasl", "smtp_sasl_auth_enable = yes", "smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd"]
    if choice == 15:
        return ["$ sudo cat /etc/pgbouncer/userlist.txt", f'"{rng.choice(["ana", "shop", "ci"])}" "SCRAM-SHA-256$4096:{base64.b64encode(rng.randbytes(16)).decode()}${base64.b64encode(rng.randbytes(32)).decode()}:{base64.b64encode(rng.randbytes(32)).decode()}"']
    if choice == 16:
        return ["$ sudo cat /etc/dovecot/users", f"ana@acme.io:{{SHA512-CRYPT}}$6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}::::::"]
    if choice == 17:
        return ["Wireless Security", "Security Mode:     WPA2-PSK [AES]", "Pre-Shared Key:    ••••••••••••", "Group Key Update Interval:   3600 seconds"]
    if choice == 18:
        return ["$ openssl rsa -in server.key -passin env:KEY_PASS -out server.nopass.key", "writing RSA key"]
    return ["$ forgejo-runner register --no-interactive --instance https://git.acme.io --token-file /run/secrets/runner --name runner-01",
            "INFO Runner registered successfully."]


def twenty_fifth_secret_case(rng):
    """The twenty-fifth pool (`--pool twenty-fifth`): written after the twenty-fourth pool had been
    through some seventy rounds, before any rule was run on it, from places none of the twenty-four
    earlier pools has: `sshpass -p`, unixODBC's `isql DSN user password`, `mysqladmin … password`,
    Nmap's `http-brute` and Medusa's found lines, Metasploit's `set PASSWORD`, `podman login -p`,
    `az sql server create --admin-password`, `aws iam create-login-profile`, Cloud Foundry's `cf
    login -p`, `vault write … password=`, PowerShell's `Invoke-Sqlcmd -Password`, Nodemailer's
    `auth: { pass: … }`, Java's `props.put("mail.smtp.password", …)`, Kotlin's
    `PasswordAuthentication(…, "…".toCharArray())`, `openssl enc -k`, FortiOS' `set password`,
    Huawei's `local-user … password irreversible-cipher`, ProCurve's `password manager … plaintext`,
    `mosquitto_passwd -b`, `wandb login`, Django REST's `Authorization: Token`, `x-rapidapi-key`,
    Pushover's `-F token=`, Moodle's `$CFG->dbpass`, phpMyAdmin's `$cfg['Servers'][$i]['password']`,
    GitLab's `initial_root_password`, Zabbix's `DBPassword=`, HAProxy's `insecure-password`,
    Bacula's `Password = "…"`, FreeSWITCH's `<param name="password" value=…/>`, a Counter-Strike
    `sv_password`, an ARK launch line's `?ServerAdminPassword=`, `virt-customize --root-password
    password:`, `airflow users create --password`, `splunk add user … -auth`, `flux create secret git
    --password`, TeamCity's super user token (digits only), `aria2c --http-passwd`, `kaggle.json`."""
    user, host = login_parts(rng)
    choice = rng.randrange(39)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("?", "")
    if choice == 0:
        return "password", [f"$ sshpass -p '{pw}' ssh {user}@{host} uptime", " 10:42:07 up 12 days,  3:04,  1 user,  load average: 0.08, 0.03, 0.01"], [pw]
    if choice == 1:
        return "password", [f"$ isql -v shop-dsn {user} {pw}", "+---------------------------------------+", "| Connected!                            |"], [pw]
    if choice == 2:
        return "password", [f"$ mysqladmin -u root password '{pw}'", "mysqladmin: [Warning] Using a password on the command line interface can be insecure."], [pw]
    if choice == 3:
        return "password", ["PORT   STATE SERVICE", "80/tcp open  http", "| http-brute:", "|   Accounts:",
                            f"|     {user}:{pw} - Valid credentials", "|_  Statistics: Performed 1042 guesses in 31 seconds"], [pw]
    if choice == 4:
        return "password", [f"ACCOUNT FOUND: [ssh] Host: {host} User: {user} Password: {pw} [SUCCESS]"], [pw]
    if choice == 5:
        return "password", [f"msf6 auxiliary(scanner/ssh/ssh_login) > set PASSWORD {pw}", f"PASSWORD => {pw}",
                            "msf6 auxiliary(scanner/ssh/ssh_login) > run"], [pw]
    if choice == 6:
        return "password", [f"$ podman login -u {user} -p {pw} quay.io", "Login Succeeded!"], [pw]
    if choice == 7:
        return "password", [f"$ az sql server create --name shop-sql --resource-group shop --location westeurope --admin-user {user} --admin-password '{pw}'"], [pw]
    if choice == 8:
        return "password", [f"$ aws iam create-login-profile --user-name {user} --password '{pw}' --password-reset-required"], [pw]
    if choice == 9:
        return "password", [f"$ cf login -a https://api.cf.acme.io -u {user} -p '{pw}' -o shop -s prod", "API endpoint: https://api.cf.acme.io", "Authenticating...", "OK"], [pw]
    if choice == 10:
        return "password", [f"$ vault write auth/userpass/users/{user} password={pw} policies=admin", f"Success! Data written to: auth/userpass/users/{user}"], [pw]
    if choice == 11:
        return "password", [f"PS C:\\> Invoke-Sqlcmd -ServerInstance db-03 -Database shop -Username {user} -Password '{pw}' -Query \"SELECT 1\""], [pw]
    if choice == 12:
        return "password", ["const transporter = nodemailer.createTransport({", "  host: 'smtp.acme.io',", "  port: 587,",
                            f"  auth: {{ user: '{user}@acme.io', pass: '{pw}' }}", "});"], [pw]
    if choice == 13:
        return "password", ["Properties props = new Properties();", 'props.put("mail.smtp.host", "smtp.acme.io");',
                            f'props.put("mail.smtp.user", "{user}");', f'props.put("mail.smtp.password", "{pw}");'], [pw]
    if choice == 14:
        return "password", ["Authenticator.setDefault(object : Authenticator() {", "    override fun getPasswordAuthentication() =",
                            f'        PasswordAuthentication("{user}", "{pw}".toCharArray())', "})"], [pw]
    if choice == 15:
        return "password", [f"$ openssl enc -aes-256-cbc -pbkdf2 -k '{pw}' -in backup.tar -out backup.tar.enc"], [pw]
    if choice == 16:
        return "password", ["FGT60F # config system admin", 'FGT60F (admin) # edit "ops"', f"FGT60F (ops) # set password {pw}",
                            "FGT60F (ops) # end"], [pw]
    if choice == 17:
        return "password", ["[HUAWEI-aaa] local-user " + user + " password irreversible-cipher " + pw,
                            f"[HUAWEI-aaa] local-user {user} service-type ssh"], [pw]
    if choice == 18:
        return "password", [f"switch(config)# password manager user-name {user} plaintext {pw}", "switch(config)# write memory"], [pw]
    if choice == 19:
        return "password", [f"$ sudo mosquitto_passwd -b /etc/mosquitto/passwd {user} {pw}", "$ sudo systemctl reload mosquitto"], [pw]
    if choice == 20:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ wandb login {v}", "wandb: Appending key for api.wandb.ai to your netrc file: /home/lena/.netrc"], [v]
    if choice == 21:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ curl -H 'Authorization: Token {v}' https://shop.acme.io/api/orders/"], [v]
    if choice == 22:
        v = rand(rng, HEX, 50)
        return "api_key", ["$ curl --request GET --url https://weather.p.rapidapi.com/current",
                           f"  --header 'x-rapidapi-key: {v}'", "  --header 'x-rapidapi-host: weather.p.rapidapi.com'"], [v]
    if choice == 23:
        v = rand(rng, string.ascii_lowercase + string.digits, 30)
        return "api_key", ["$ curl -s \\", f'  -F "token={v}" \\', f'  -F "user={rand(rng, string.ascii_lowercase + string.digits, 30)}" \\',
                           '  -F "message=backup done" https://api.pushover.net/1/messages.json'], [v]
    if choice == 24:
        return "password", ["// config.php", "$CFG->dbtype    = 'pgsql';", "$CFG->dbhost    = 'db-03';", f"$CFG->dbuser    = '{user}';",
                            f"$CFG->dbpass    = '{pw}';"], [pw]
    if choice == 25:
        return "password", ["$cfg['Servers'][$i]['host'] = 'db-03';", f"$cfg['Servers'][$i]['user'] = '{user}';",
                            f"$cfg['Servers'][$i]['password'] = '{pw}';"], [pw]
    if choice == 26:
        return "password", ["# /etc/gitlab/gitlab.rb", "external_url 'https://git.acme.io'", f"gitlab_rails['initial_root_password'] = \"{pw}\""], [pw]
    if choice == 27:
        return "password", ["# /etc/zabbix/zabbix_server.conf", "DBHost=db-03", "DBName=zabbix", f"DBUser={user}", f"DBPassword={pw}"], [pw]
    if choice == 28:
        return "password", ["userlist admins", f"    user {user} insecure-password {pw}", "    user stats insecure-password-hash-disabled"], [pw]
    if choice == 29:
        return "password", ["Director {", "  Name = backup-dir", "  DIRport = 9101", f'  Password = "{pw}"', "}"], [pw]
    if choice == 30:
        return "password", ['<user id="1001">', "  <params>", f'    <param name="password" value="{pw}"/>', '    <param name="vm-password" value="1001"/>',
                            "  </params>", "</user>"], [pw]
    if choice == 31:
        return "password", ["// server.cfg", 'hostname "acme scrims"', f'sv_password "{pw}"', 'rcon_password ""'], [pw]
    if choice == 32:
        return "password", [f"ShooterGameServer.exe TheIsland?listen?SessionName=acme?ServerPassword=?ServerAdminPassword={pw} -server -log"], [pw]
    if choice == 33:
        return "password", [f"$ virt-customize -a debian-12.qcow2 --root-password password:{pw} --hostname web-01",
                            "[   0.0] Examining the guest ..."], [pw]
    if choice == 34:
        return "password", [f"$ airflow users create --username {user} --firstname Ana --lastname Ops --role Admin --email ops@acme.io --password '{pw}'"], [pw]
    if choice == 35:
        other = plain_password(rng).replace("$", "").replace("&", "").replace("?", "")
        return "password", [f"$ /opt/splunk/bin/splunk add user {user} -password '{pw}' -role admin -auth admin:{other}", "User added."], [pw, other]
    if choice == 36:
        v = rand(rng, string.digits, 19)
        return "api_key", ["[2026-11-20 09:14:02,118]   INFO -   jetbrains.buildServer.SERVER - Administrator can login from web UI using super user authentication token",
                           f"[2026-11-20 09:14:02,118]   INFO -   jetbrains.buildServer.SERVER - Super user authentication token: {v} (use empty username with the token as the password to access the server)"], [v]
    if choice == 37:
        return "password", [f"$ aria2c --http-user={user} --http-passwd='{pw}' https://files.acme.io/iso/debian.iso"], [pw]
    v = rand(rng, HEX, 32)
    return "api_key", ["$ cat ~/.kaggle/kaggle.json", f'{{"username":"{user}","key":"{v}"}}'], [v]


def twenty_fifth_negative_case(rng):
    choice = rng.randrange(22)
    if choice == 0:
        return ["$ sshpass -e ssh deploy@10.0.8.21 uptime", " 10:42:07 up 12 days,  3:04,  1 user,  load average: 0.08, 0.03, 0.01"]
    if choice == 1:
        return ["$ isql -v shop-dsn", "[ISQL]ERROR: Could not SQLConnect", "[28000][unixODBC]Access denied for user 'ops'@'10.0.8.21' (using password: YES)"]
    if choice == 2:
        return ["PORT   STATE SERVICE", "80/tcp open  http", "| http-brute:", "|   Accounts: No valid accounts found",
                "|_  Statistics: Performed 1042 guesses in 31 seconds"]
    if choice == 3:
        return ["msf6 auxiliary(scanner/ssh/ssh_login) > set PASS_FILE /usr/share/wordlists/rockyou.txt",
                "PASS_FILE => /usr/share/wordlists/rockyou.txt", "msf6 auxiliary(scanner/ssh/ssh_login) > run"]
    if choice == 4:
        return ["$ podman login --password-stdin -u ops quay.io < ~/.quay-token", "Login Succeeded!"]
    if choice == 5:
        return ["$ vault write auth/userpass/users/ops password=@/run/secrets/ops policies=admin", "Success! Data written to: auth/userpass/users/ops"]
    if choice == 6:
        return ["const transporter = nodemailer.createTransport({", "  host: 'smtp.acme.io',",
                "  auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASS }", "});"]
    if choice == 7:
        return ['props.put("mail.smtp.auth", "true");', 'props.put("mail.smtp.starttls.enable", "true");', 'props.put("mail.smtp.port", "587");']
    if choice == 8:
        return ["FGT60F # config system admin", 'FGT60F (admin) # edit "ops"', "FGT60F (ops) # set accprofile super_admin",
                f"FGT60F (ops) # set password ENC SH2{rand(rng, ALNUM, 60)}"]
    if choice == 9:
        return ["$ openssl enc -aes-256-cbc -pbkdf2 -pass file:/run/secrets/backup -in backup.tar -out backup.tar.enc"]
    if choice == 10:
        return ["$ wandb login --relogin", "wandb: You can find your API key in your browser here: https://wandb.ai/authorize",
                "wandb: Paste an API key from your profile and hit enter:"]
    if choice == 11:
        return ["$ curl -H 'Authorization: Token ${API_TOKEN}' https://shop.acme.io/api/orders/", '{"count": 42, "next": "https://shop.acme.io/api/orders/?page=2"}']
    if choice == 12:
        return ["// config.php", "$CFG->dbtype    = 'pgsql';", "$CFG->dbhost    = 'db-03';", "$CFG->prefix    = 'mdl_';",
                "$CFG->wwwroot   = 'https://learn.acme.io';"]
    if choice == 13:
        return ["# /etc/zabbix/zabbix_server.conf", "DBHost=db-03", "DBName=zabbix", "# DBPassword=", "LogFile=/var/log/zabbix/zabbix_server.log"]
    if choice == 14:
        return ["userlist admins", f"    user ops password $6${rand(rng, ALNUM, 16)}${rand(rng, ALNUM + './', 86)}"]
    if choice == 15:
        return ['<user id="1001">', "  <params>", '    <param name="password" value="$${default_password}"/>', "  </params>", "</user>"]
    if choice == 16:
        return ["// server.cfg", 'hostname "acme scrims"', 'sv_password ""', "sv_lan 0", "mp_maxrounds 24"]
    if choice == 17:
        return ["$ virt-customize -a debian-12.qcow2 --root-password file:/run/secrets/root --hostname web-01", "[   0.0] Examining the guest ..."]
    if choice == 18:
        return ["$ airflow users create --username ops --role Admin --email ops@acme.io --use-random-password",
                "User \"ops\" created with role \"Admin\""]
    if choice == 19:
        return ["[2026-11-20 09:14:02,118]   INFO -   jetbrains.buildServer.SERVER - Build 48213 finished: 1042 tests passed",
                "[2026-11-20 09:14:02,120]   INFO -   jetbrains.buildServer.SERVER - Agent 7 registered, authorization token accepted"]
    if choice == 20:
        return ["$ cat ~/.kaggle/kaggle.json", '{"username":"ops","key":"<your-api-key>"}']
    return ["$ mysqladmin -u root -p status", "Enter password:", "Uptime: 1042731  Threads: 3  Questions: 881721  Slow queries: 0"]


def twenty_sixth_secret_case(rng):
    """The twenty-sixth pool (`--pool twenty-sixth`): written after the twenty-fifth pool's sets had
    come back clean, before any rule was run on it, from places none of the twenty-five earlier
    pools has: Go's `smtp.PlainAuth`, Rust's lettre `Credentials::new`, Perl's `DBI->connect`,
    Paramiko's `connect(…, password=…)`, `.wgetrc`, a CIFS credentials file, `skopeo --dest-creds`,
    `oras login -p`, `rancher login --token`, Samba's `rpcclient -U 'user%pass'` and `net ads join`,
    kerbrute's and WPScan's found lines, sqlmap's clear-text password, `kinit` fed on stdin,
    `kwallet-query -r`, `nmcli --show-secrets`, `slappasswd -s`, Alertmanager's
    `smtp_auth_password`, Mercurial's `[auth]`, pgBackRest's `repo1-cipher-pass`, duplicity's
    `PASSPHRASE=`, SAP HANA's `hdbsql -p`, `mongodump --password`, `openconnect --passwd-on-stdin`,
    `pdbedit` fed by `printf`, Factorio's `game_password`, Flask's `app.secret_key`, Streamlit's
    `secrets.toml`, Rundeck's `RD_TOKEN`, a Valheim server's `-password`, Contentful's `CFPAT-`,
    Fly.io's `fo1_`, `glab auth login --token`, Gitea's `tea login add --token`, Jupyter's
    `c.NotebookApp.token`, `bitcoin.conf`'s `rpcpassword`, `teamviewer passwd`, a Nextcloud app
    password."""
    user, host = login_parts(rng)
    choice = rng.randrange(39)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "")
    if choice == 0:
        return "password", ['auth := smtp.PlainAuth("", "' + user + '@acme.io", "' + pw + '", "smtp.acme.io")',
                            'err := smtp.SendMail("smtp.acme.io:587", auth, from, to, msg)'], [pw]
    if choice == 1:
        return "password", [f'let creds = Credentials::new("{user}@acme.io".to_owned(), "{pw}".to_owned());',
                            'let mailer = SmtpTransport::relay("smtp.acme.io")?.credentials(creds).build();'], [pw]
    if choice == 2:
        return "password", [f'my $dbh = DBI->connect("dbi:Pg:dbname=shop;host=db-03", "{user}", "{pw}",', "    { RaiseError => 1, AutoCommit => 0 });"], [pw]
    if choice == 3:
        return "password", ["client = paramiko.SSHClient()", "client.set_missing_host_key_policy(paramiko.AutoAddPolicy())",
                            f'client.connect("{host}", username="{user}", password="{pw}")'], [pw]
    if choice == 4:
        return "password", ["$ cat ~/.wgetrc", "user = " + user, f"password = {pw}", "tries = 3"], [pw]
    if choice == 5:
        return "password", ["$ sudo cat /etc/samba/creds-fs01", f"username={user}", f"password={pw}", "domain=ACME"], [pw]
    if choice == 6:
        return "password", [f"$ skopeo copy --dest-creds {user}:{pw} docker://docker.io/library/nginx:1.27 docker://registry.acme.io/mirror/nginx:1.27",
                            "Getting image source signatures"], [pw]
    if choice == 7:
        return "password", [f"$ oras login registry.acme.io -u {user} -p '{pw}'", "Login Succeeded"], [pw]
    if choice == 8:
        v = "token-" + rand(rng, string.ascii_lowercase + string.digits, 5) + ":" + rand(rng, string.ascii_lowercase + string.digits, 54)
        return "api_key", [f"$ rancher login https://rancher.acme.io/v3 --token {v}", "INFO[0000] Saving config to /home/lena/.rancher/cli2.json"], [v.split(":")[1]]
    if choice == 9:
        return "password", [f"$ rpcclient -U '{user}%{pw}' 10.0.8.21", "rpcclient $> enumdomusers"], [pw]
    if choice == 10:
        return "password", [f"$ sudo net ads join -U Administrator%{pw}", "Using short domain name -- ACME", "Joined 'WEB-01' to dns domain 'acme.io'"], [pw]
    if choice == 11:
        return "password", ["2026/11/20 09:14:02 >  Using KDC(s):", "2026/11/20 09:14:02 >     dc01.acme.io:88",
                            f"2026/11/20 09:14:03 >  [+] VALID LOGIN:  {user}@acme.io:{pw}", "2026/11/20 09:14:03 >  Done! Tested 1042 logins (1 successes) in 4.2 seconds"], [pw]
    if choice == 12:
        return "password", ["[+] Performing password attack on Xmlrpc against 1 user/s", "[SUCCESS] - " + user + " / " + pw,
                            "[!] Valid Combinations Found:", f" | Username: {user}, Password: {pw}"], [pw]
    if choice == 13:
        return "password", ["database management system users password hashes:", f"[*] {user} [1]:",
                            "    password hash: *" + rand(rng, "0123456789ABCDEF", 40), f"    clear-text password: {pw}"], [pw]
    if choice == 14:
        return "password", [f"$ echo '{pw}' | kinit {user}@ACME.IO", f"Password for {user}@ACME.IO:", "$ klist"], [pw]
    if choice == 15:
        return "password", ["$ kwallet-query -r git.acme.io -f Passwords kdewallet", pw], [pw]
    if choice == 16:
        return "password", ["$ nmcli --show-secrets connection show Home | grep psk", "802-11-wireless-security.psk-flags:      0 (none)",
                            f"802-11-wireless-security.psk:            {pw}"], [pw]
    if choice == 17:
        return "password", [f"$ slappasswd -s '{pw}'", "{SSHA}" + rand(rng, ALNUM + "+/", 32)], [pw]
    if choice == 18:
        return "password", ["global:", "  smtp_smarthost: 'smtp.acme.io:587'", f"  smtp_auth_username: '{user}@acme.io'",
                            f"  smtp_auth_password: '{pw}'", "  smtp_from: 'alerts@acme.io'"], [pw]
    if choice == 19:
        return "password", ["$ cat ~/.hgrc", "[auth]", "acme.prefix = hg.acme.io", f"acme.username = {user}", f"acme.password = {pw}"], [pw]
    if choice == 20:
        return "password", ["# /etc/pgbackrest/pgbackrest.conf", "[global]", "repo1-cipher-type=aes-256-cbc", f"repo1-cipher-pass={pw}",
                            "repo1-path=/var/lib/pgbackrest"], [pw]
    if choice == 21:
        return "password", [f"$ PASSPHRASE='{pw}' duplicity /home/{user} sftp://backup@nas.home//backups/{user}", "Local and Remote metadata are synchronized, no sync needed."], [pw]
    if choice == 22:
        return "password", [f"$ hdbsql -n db-03:30015 -u SYSTEM -p {pw} \"SELECT * FROM DUMMY\"", "DUMMY", "\"X\""], [pw]
    if choice == 23:
        return "password", [f"$ mongodump --uri mongodb://db-03:27017 --username {user} --password '{pw}' --db shop",
                            "2026-11-20T09:14:02.118+0000	writing shop.orders to dump/shop/orders.bson"], [pw]
    if choice == 24:
        return "password", [f"$ echo '{pw}' | sudo openconnect --user={user} --passwd-on-stdin vpn.acme.io", "POST https://vpn.acme.io/",
                            "Connected to 203.0.113.7:443"], [pw]
    if choice == 25:
        return "password", [f"$ printf '{pw}\\n{pw}\\n' | sudo pdbedit -a -t -u {user}", f"Unix username:        {user}"], [pw]
    if choice == 26:
        return "password", ["$ cat server-settings.json", '  "name": "acme factory",', '  "visibility": { "public": false, "lan": true },',
                            f'  "game_password": "{pw}",', '  "require_user_verification": true,'], [pw]
    if choice == 27:
        v = rand(rng, HEX, 48)
        return "api_key", ["app = Flask(__name__)", f"app.secret_key = '{v}'", "app.config['SESSION_COOKIE_SECURE'] = True"], [v]
    if choice == 28:
        return "password", ["# .streamlit/secrets.toml", "[postgres]", 'host = "db-03"', "port = 5432", f'user = "{user}"', f'password = "{pw}"'], [pw]
    if choice == 29:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ export RD_TOKEN={v}", "$ rd projects list", "# 3 Projects:", "shop", "billing", "ops"], [v]
    if choice == 30:
        return "password", [f'$ ./valheim_server.x86_64 -name "acme" -port 2456 -world "Dedicated" -password "{pw}" -public 0',
                            "Valheim version: l-0.219.14"], [pw]
    if choice == 31:
        v = "CFPAT-" + rand(rng, ALNUM + "-_", 43)
        return "api_key", [f"$ contentful login --management-token {v}", "Great! Your CMA token is now stored on your system."], [v[6:]]
    if choice == 32:
        v = "fo1_" + rand(rng, ALNUM + "-_", 43)
        return "api_key", [f"export FLY_API_TOKEN={v}", "$ flyctl deploy --remote-only"], [v[4:]]
    if choice == 33:
        v = "glpat-" + rand(rng, ALNUM + "-_", 20)
        return "api_key", [f"$ glab auth login --hostname git.acme.io --token {v}", "✓ Logged in to git.acme.io as " + user], [v[6:]]
    if choice == 34:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ tea login add --name acme --url https://git.acme.io --token {v}", "Login as " + user + " on https://git.acme.io successful"], [v]
    if choice == 35:
        v = rand(rng, HEX, 48)
        return "api_key", ["# ~/.jupyter/jupyter_notebook_config.py", "c.NotebookApp.ip = '0.0.0.0'", f"c.NotebookApp.token = '{v}'",
                           "c.NotebookApp.open_browser = False"], [v]
    if choice == 36:
        return "password", ["# ~/.bitcoin/bitcoin.conf", "server=1", f"rpcuser={user}", f"rpcpassword={pw}", "rpcallowip=127.0.0.1"], [pw]
    if choice == 37:
        return "password", [f"$ sudo teamviewer passwd '{pw}'", "ok"], [pw]
    v = "-".join(rand(rng, ALNUM, 5) for _ in range(5))
    return "password", ["Security", "Devices & sessions", "New app password", "Use the credentials below to configure your app or device.",
                        "Username  " + user, "Password  " + v], [v]


def twenty_sixth_negative_case(rng):
    choice = rng.randrange(22)
    if choice == 0:
        return ['auth := smtp.PlainAuth("", os.Getenv("SMTP_USER"), os.Getenv("SMTP_PASS"), "smtp.acme.io")']
    if choice == 1:
        return ["client = paramiko.SSHClient()", 'client.connect("10.0.8.21", username="ops", key_filename="/home/ops/.ssh/id_ed25519")']
    if choice == 2:
        return ["$ cat ~/.wgetrc", "user = ops", "ask_password = on", "tries = 3"]
    if choice == 3:
        return ["$ skopeo copy --dest-authfile /run/containers/auth.json docker://docker.io/library/nginx:1.27 docker://registry.acme.io/mirror/nginx:1.27"]
    if choice == 4:
        return ["$ oras login registry.acme.io -u ops --password-stdin < ~/.oras-token", "Login Succeeded"]
    if choice == 5:
        return ["2026/11/20 09:14:03 >  [+] VALID USERNAME:  ops@acme.io", "2026/11/20 09:14:03 >  Done! Tested 1042 usernames (1 valid) in 4.2 seconds"]
    if choice == 6:
        return ["[+] Performing password attack on Xmlrpc against 1 user/s", "[i] No Valid Passwords Found."]
    if choice == 7:
        return ["database management system users password hashes:", "[*] ops [1]:", "    password hash: *" + rand(rng, "0123456789ABCDEF", 40)]
    if choice == 8:
        return ["$ kinit -k -t /etc/krb5.keytab HTTP/web-01.acme.io@ACME.IO", "$ klist"]
    if choice == 9:
        return ["$ nmcli connection show Home | grep psk", "802-11-wireless-security.psk-flags:      0 (none)", "802-11-wireless-security.psk:            <hidden>"]
    if choice == 10:
        return ["$ slappasswd -h {SSHA}", "New password:", "Re-enter new password:", "{SSHA}" + rand(rng, ALNUM + "+/", 32)]
    if choice == 11:
        return ["global:", "  smtp_smarthost: 'smtp.acme.io:587'", "  smtp_auth_username: 'alerts@acme.io'",
                "  smtp_auth_password_file: /etc/alertmanager/smtp_pass"]
    if choice == 12:
        return ["$ cat ~/.hgrc", "[auth]", "acme.prefix = hg.acme.io", "acme.username = ops", "acme.schemes = https"]
    if choice == 13:
        return ["# /etc/pgbackrest/pgbackrest.conf", "[global]", "repo1-cipher-type=aes-256-cbc", "repo1-path=/var/lib/pgbackrest", "repo1-retention-full=2"]
    if choice == 14:
        return ["$ duplicity --encrypt-key 0x" + rand(rng, "0123456789ABCDEF", 16) + " /home/ops sftp://backup@nas.home//backups/ops"]
    if choice == 15:
        return ["$ mongodump --uri mongodb://db-03:27017 --username ops --password --db shop", "Enter password for mongo user:"]
    if choice == 16:
        return ["$ sudo openconnect --user=ops vpn.acme.io", "POST https://vpn.acme.io/", "Please enter your username and password.", "Password:"]
    if choice == 17:
        return ["# ~/.jupyter/jupyter_notebook_config.py", "c.NotebookApp.token = ''", "c.NotebookApp.password_required = True"]
    if choice == 18:
        return ["import streamlit as st", 'conn = psycopg.connect(host="db-03", password=st.secrets["postgres"]["password"])']
    if choice == 19:
        return ["$ glab auth status", "git.acme.io", "  ✓ Logged in to git.acme.io as ops (/home/ops/.config/glab-cli/config.yml)",
                "  ✓ Token: **************************"]
    if choice == 20:
        return ["# ~/.bitcoin/bitcoin.conf", "server=1", "rpcauth=ops:" + rand(rng, HEX, 32) + "$" + rand(rng, HEX, 64)]
    return ["Security", "Devices & sessions", "Firefox on Linux   Last activity: 2 minutes ago", "Nextcloud Files (Android)   Last activity: yesterday"]

def twenty_seventh_secret_case(rng):
    """The twenty-seventh pool (`--pool twenty-seventh`): written after three of the twenty-sixth
    pool's sets had come back clean, before any rule was run on it, from places none of the
    twenty-six earlier pools has: a Kubernetes Secret's `stringData`, a NATS URL, ncrack's and
    `ovftool`'s credentials, `.coveralls.yml`, `az login --service-principal`, Laravel's
    `MAIL_PASSWORD`, Grafana's `GF_SECURITY_ADMIN_PASSWORD`, Django's `DJANGO_SUPERUSER_PASSWORD`,
    Drone's `DRONE_RPC_SECRET`, `arangosh --server.password`, an OpenStack `openrc`, `codecov -t`,
    `pdftk … input_pw`, `encfs --stdinpass`, `passwd --stdin`, a `newusers` batch file, pywinrm's
    `auth=(…)`, a Remmina file, Guacamole's `user-mapping.xml`, authentik's `.env`, oauth2-proxy's
    secrets, a GitHub App's `x-access-token:ghs_…` remote, an AWS session token, an Azure blob SAS,
    OPNsense's `apikey.txt`, `curlftpfs -o user=`, Kustomize's `secretGenerator`, nullmailer's
    `--pass=`, aerc's `source =`, Pidgin's `accounts.xml`, vdirsyncer, SABnzbd's keys and
    `sshfs -o password_stdin` and `connmanctl`'s `Passphrase?`."""
    user, host = login_parts(rng)
    choice = rng.randrange(36)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "")
    # (In a URL's user part: no `#` or `?` either, which would end it.)
    url_pw = pw.replace("#", "").replace("?", "")
    if choice == 0:
        return "password", ["apiVersion: v1", "kind: Secret", "metadata:", "  name: shop-admin", "type: Opaque", "stringData:",
                            f"  admin-user: {user}", f"  admin-pass: {pw}"], [pw]
    if choice == 1:
        return "password", [f"$ nats --server nats://{user}:{url_pw}@nats.acme.io:4222 sub 'orders.>'",
                            "09:14:02 Subscribing on orders.>"], [url_pw]
    if choice == 2:
        return "password", ["Starting Ncrack 0.7 ( http://ncrack.org ) at 2026-11-20 09:14 UTC", "",
                            "Discovered credentials for ssh on 10.0.8.21 22/tcp:", f"10.0.8.21 22/tcp ssh: '{user}' '{pw}'", "",
                            "Ncrack done: 1 service scanned in 93.02 seconds."], [pw]
    if choice == 3:
        return "password", [f"$ ovftool vi://{user}:{url_pw}@vcenter.acme.io/DC1/vm/web-01 /backups/web-01.ova",
                            "Opening VI source: vi://" + user + "@vcenter.acme.io:443/DC1/vm/web-01"], [url_pw]
    if choice == 4:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ cat .coveralls.yml", "service_name: github-actions", f"repo_token: {v}", "parallel: true"], [v]
    if choice == 5:
        v = rand(rng, ALNUM, 3) + rng.choice(string.digits) + "Q~" + rand(rng, ALNUM + "_-.~", 34)
        return "api_key", [f"$ az login --service-principal -u {uuid.UUID(bytes=rng.randbytes(16))} -p '{v}' --tenant {uuid.UUID(bytes=rng.randbytes(16))}",
                           '    "cloudName": "AzureCloud",'], [v]
    if choice == 6:
        return "password", ["MAIL_MAILER=smtp", "MAIL_HOST=smtp.acme.io", "MAIL_PORT=587", f"MAIL_USERNAME={user}@acme.io", f"MAIL_PASSWORD={pw}",
                            "MAIL_ENCRYPTION=tls"], [pw]
    if choice == 7:
        return "password", [f"$ docker run -d -p 3000:3000 --name grafana -e GF_SECURITY_ADMIN_PASSWORD={pw} grafana/grafana-oss:11.3.0",
                            rand(rng, HEX, 64)], [pw]
    if choice == 8:
        return "password", [f"$ DJANGO_SUPERUSER_PASSWORD='{pw}' python manage.py createsuperuser --noinput --username {user} --email {user}@acme.io",
                            "Superuser created successfully."], [pw]
    if choice == 9:
        v = rand(rng, HEX, 32)
        return "api_key", ["  drone:", "    image: drone/drone:2", "    environment:", "      - DRONE_GITEA_SERVER=https://git.acme.io",
                           f"      - DRONE_RPC_SECRET={v}", "      - DRONE_SERVER_HOST=drone.acme.io"], [v]
    if choice == 10:
        return "password", [f"$ arangosh --server.endpoint tcp://db-03:8529 --server.username root --server.password '{pw}'",
                            "Connected to ArangoDB 'http+tcp://db-03:8529, version: 3.12.3 [SINGLE, server], database: '_system', username: 'root'"], [pw]
    if choice == 11:
        return "password", ["$ cat shop-openrc.sh", "export OS_AUTH_URL=https://keystone.acme.io:5000/v3", f"export OS_USERNAME={user}",
                            f"export OS_PASSWORD={pw}", "export OS_PROJECT_NAME=shop", "export OS_USER_DOMAIN_NAME=Default"], [pw]
    if choice == 12:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ ./codecov -t {v} -f coverage.xml", "[2026-11-20T09:14:02.118Z] ['info'] Pinging Codecov: https://codecov.io/upload/v4"], [v]
    if choice == 13:
        return "password", [f"$ pdftk payslip-2026-11.pdf input_pw {pw} output payslip-open.pdf", "$ ls -l payslip-open.pdf"], [pw]
    if choice == 14:
        return "password", [f"$ echo '{pw}' | encfs --stdinpass ~/.crypt ~/crypt", "$ ls ~/crypt", "notes  taxes"], [pw]
    if choice == 15:
        return "password", [f"$ echo '{pw}' | sudo passwd --stdin {user}", f"Changing password for user {user}.",
                            "passwd: all authentication tokens updated successfully."], [pw]
    if choice == 16:
        return "password", ["$ cat batch.txt", f"{user}:{url_pw}:1001:1001:Ops:/home/{user}:/bin/bash", "$ sudo newusers batch.txt"], [url_pw]
    if choice == 17:
        return "password", ["import winrm", f"s = winrm.Session('{host}', auth=('{user}', '{pw}'))", "r = s.run_cmd('ipconfig', ['/all'])"], [pw]
    if choice == 18:
        v = base64.b64encode(rng.randbytes(24)).decode()
        return "password", ["$ cat ~/.local/share/remmina/group_rdp_web-01.remmina", "[remmina]", "protocol=RDP", f"server={host}",
                            f"username={user}", f"password={v}", "colordepth=32"], [v]
    if choice == 19:
        return "password", ["<user-mapping>", f'    <authorize username="{user}" password="{pw}">', '        <connection name="web-01">',
                            "            <protocol>rdp</protocol>"], [pw]
    if choice == 20:
        return "password", ['<connection name="web-01">', "    <protocol>rdp</protocol>", f'    <param name="hostname">{host}</param>',
                            f'    <param name="username">{user}</param>', f'    <param name="password">{pw}</param>', "</connection>"], [pw]
    if choice == 21:
        v = base64.b64encode(rng.randbytes(60)).decode()
        return "password", ["$ cat .env", f"PG_PASS={pw}", f"AUTHENTIK_SECRET_KEY={v}", "AUTHENTIK_ERROR_REPORTING__ENABLED=false"], [pw, v]
    if choice == 22:
        v = rand(rng, ALNUM, 32)
        w = base64.urlsafe_b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ oauth2-proxy --provider=oidc --oidc-issuer-url=https://sso.acme.io --client-id=shop",
                           f"    --client-secret={v} --cookie-secret={w}", "    --email-domain=acme.io --upstream=http://127.0.0.1:8080"], [v, w]
    if choice == 23:
        v = "ghs_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ git clone https://x-access-token:{v}@github.com/acme/shop.git", "Cloning into 'shop'..."], [v[4:]]
    if choice == 24:
        secret = rand(rng, ALNUM + "+/", 40)
        token = "IQoJb3JpZ2luX2VjE" + rand(rng, ALNUM + "+/", 200) + "="
        return "api_key", ["$ cat ~/.aws/credentials", "[shop-admin]", "aws_access_key_id = ASIA" + rand(rng, string.ascii_uppercase + "234567", 16),
                           f"aws_secret_access_key = {secret}", f"aws_session_token = {token}"], [secret, token[17:]]
    if choice == 25:
        sig = base64.b64encode(rng.randbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        return "api_key", ["$ curl -o db.tar.gz 'https://acmestore.blob.core.windows.net/backups/db.tar.gz?sp=r&st=2026-11-20T09:14:02Z"
                           f"&se=2026-11-21T09:14:02Z&spr=https&sv=2022-11-02&sr=b&sig={sig}'"], [sig[:-3]]
    if choice == 26:
        v = rand(rng, ALNUM + "+/", 80)
        w = rand(rng, ALNUM + "+/", 80)
        return "api_key", ["$ cat ~/Downloads/apikey.txt", f"key={v}", f"secret={w}"], [v, w]
    if choice == 27:
        return "password", [f"$ curlftpfs -o user={user}:{url_pw},allow_other ftp.acme.io /mnt/ftp", "$ ls /mnt/ftp"], [url_pw]
    if choice == 28:
        return "password", ["# kustomization.yaml", "secretGenerator:", "- name: shop-db", "  literals:", f"  - username={user}",
                            f"  - password={pw}"], [pw]
    if choice == 29:
        return "password", ["$ cat /etc/nullmailer/remotes", f"smtp.acme.io smtp --port=587 --starttls --user={user}@acme.io --pass={pw}"], [pw]
    if choice == 30:
        return "password", ["# ~/.config/aerc/accounts.conf", "[Work]", f"source   = imaps://{user}%40acme.io:{url_pw}@imap.acme.io",
                            "outgoing = smtp+plain://" + user + "%40acme.io@smtp.acme.io:587", f"from     = {user.title()} <{user}@acme.io>"], [url_pw]
    if choice == 31:
        return "password", ["<account>", "    <protocol>prpl-jabber</protocol>", f"    <name>{user}@acme.io/home</name>",
                            f"    <password>{pw}</password>", "    <alias>Ops</alias>"], [pw]
    if choice == 32:
        return "password", ["[storage cal_remote]", 'type = "caldav"', 'url = "https://dav.acme.io/"', f'username = "{user}"',
                            f'password = "{pw}"'], [pw]
    if choice == 33:
        v = rand(rng, HEX, 32)
        w = rand(rng, HEX, 32)
        return "api_key", ["[misc]", "host = 0.0.0.0", "port = 8080", f"api_key = {v}", f"nzb_key = {w}"], [v, w]
    if choice == 34:
        return "password", [f"$ echo '{pw}' | sshfs -o password_stdin {user}@nas.home:/srv/media /mnt/media", "$ df -h /mnt/media"], [pw]
    return "password", ["connmanctl> agent on", "Agent registered", "connmanctl> connect wifi_b827eb3f2a11_486f6d65_managed_psk",
                        "Agent RequestInput wifi_b827eb3f2a11_486f6d65_managed_psk", "  Passphrase = [ Type=psk, Requirement=mandatory ]",
                        f"Passphrase? {pw}", "Connected wifi_b827eb3f2a11_486f6d65_managed_psk"], [pw]


def twenty_seventh_negative_case(rng):
    choice = rng.randrange(24)
    if choice == 0:
        return ["apiVersion: v1", "kind: Secret", "metadata:", "  name: shop-admin", "stringData:", "  admin-user: ops",
                "  # admin-pass is set by the operator"]
    if choice == 1:
        return ["$ nats --server nats://nats.acme.io:4222 --creds ~/.nkeys/creds/acme/ops.creds sub 'orders.>'", "09:14:02 Subscribing on orders.>"]
    if choice == 2:
        return ["Starting Ncrack 0.7 ( http://ncrack.org ) at 2026-11-20 09:14 UTC", "", "Ncrack done: 1 service scanned in 93.02 seconds.", "",
                "Ncrack finished."]
    if choice == 3:
        return ["$ ovftool vi://ops@vcenter.acme.io/DC1/vm/web-01 /backups/web-01.ova", "Enter login information for source vi://vcenter.acme.io/",
                "Username: ops", "Password: ********"]
    if choice == 4:
        return ["$ cat .coveralls.yml", "service_name: github-actions", "parallel: true"]
    if choice == 5:
        return [f"$ az login --service-principal -u {uuid.UUID(bytes=rng.randbytes(16))} --certificate /etc/azure/sp.pem --tenant {uuid.UUID(bytes=rng.randbytes(16))}",
                '    "cloudName": "AzureCloud",']
    if choice == 6:
        return ["MAIL_MAILER=smtp", "MAIL_HOST=smtp.acme.io", "MAIL_PORT=587", "MAIL_USERNAME=null", "MAIL_PASSWORD=null", "MAIL_ENCRYPTION=tls"]
    if choice == 7:
        return ["$ docker run -d -p 3000:3000 --name grafana -e GF_SECURITY_ADMIN_PASSWORD__FILE=/run/secrets/grafana_admin grafana/grafana-oss:11.3.0",
                rand(rng, HEX, 64)]
    if choice == 8:
        return ["$ python manage.py createsuperuser", "Username: ops", "Email address: ops@acme.io", "Password:", "Password (again):",
                "Superuser created successfully."]
    if choice == 9:
        return ["  drone:", "    image: drone/drone:2", "    environment:", "      - DRONE_GITEA_SERVER=https://git.acme.io",
                f"      - DRONE_GITEA_CLIENT_ID={uuid.UUID(bytes=rng.randbytes(16))}", "      - DRONE_SERVER_HOST=drone.acme.io"]
    if choice == 10:
        return ["$ arangosh --server.endpoint tcp://db-03:8529 --server.authentication false",
                "Connected to ArangoDB 'http+tcp://db-03:8529, version: 3.12.3 [SINGLE, server], database: '_system'"]
    if choice == 11:
        return ["$ cat shop-openrc.sh", "echo \"Please enter your OpenStack Password for project $OS_PROJECT_NAME as user $OS_USERNAME: \"",
                "read -sr OS_PASSWORD_INPUT", "export OS_PASSWORD=$OS_PASSWORD_INPUT"]
    if choice == 12:
        return ["[2026-11-20T09:14:02.118Z] ['info'] Pinging Codecov: https://codecov.io/upload/v4?commit=" + rand(rng, HEX, 40)
                + "&branch=main&build=1042", "[2026-11-20T09:14:03.201Z] ['info'] Uploading..."]
    if choice == 13:
        return ["$ pdftk payslip-2026-10.pdf payslip-2026-11.pdf cat output payslips.pdf", "$ pdftk payslips.pdf dump_data | grep NumberOfPages",
                "NumberOfPages: 4"]
    if choice == 14:
        return ["$ encfs ~/.crypt ~/crypt", "EncFS Password:", "$ ls ~/crypt", "notes  taxes"]
    if choice == 15:
        return ["$ sudo passwd -l ops", "Locking password for user ops.", "passwd: Success"]
    if choice == 16:
        return ["$ grep -E '^(ops|lena):' /etc/passwd", "ops:x:1001:1001:Ops:/home/ops:/bin/bash", "lena:x:1002:1002::/home/lena:/bin/zsh"]
    if choice == 17:
        return ["import winrm", "s = winrm.Session('web-01.acme.io', auth=('ops@ACME.IO', None), transport='kerberos')"]
    if choice == 18:
        return ["[remmina]", "protocol=RDP", "server=10.0.8.21", "username=ops", "colordepth=32", "window_maximize=1"]
    if choice == 19:
        return ['<connection name="web-01">', "    <protocol>rdp</protocol>", '    <param name="hostname">10.0.8.21</param>',
                '    <param name="port">3389</param>', '    <param name="security">nla</param>', "</connection>"]
    if choice == 20:
        return ["$ git remote -v", "origin  https://github.com/acme/shop.git (fetch)", "origin  https://github.com/acme/shop.git (push)",
                "$ git log -1 --format=%H", rand(rng, HEX, 40)]
    if choice == 21:
        return ["[misc]", "host = 0.0.0.0", "port = 8080", "cache_limit = 1G", "download_dir = /srv/incomplete"]
    if choice == 22:
        return ["$ ls -l ~/.aws", "-rw------- 1 ops ops  116 Nov 20 09:14 config", "-rw------- 1 ops ops 1042 Nov 20 09:14 credentials",
                "$ aws configure get region --profile shop-admin", "eu-central-1"]
    return ["$ connmanctl services", "*AO Home                 wifi_b827eb3f2a11_486f6d65_managed_psk",
            "    Cafe                 wifi_b827eb3f2a11_43616665_managed_none"]

def twenty_eighth_secret_case(rng):
    """The twenty-eighth pool (`--pool twenty-eighth`): written after thirty-six rounds on the
    earlier pools, before any rule was run on it, from places none of the twenty-seven earlier pools
    has: `docker inspect`'s `"Env"` list, a Zoom link's `pwd=`, `redis-cli CONFIG GET requirepass`,
    BitLocker's recovery password (`manage-bde -protectors -get`), `NEO4J_AUTH=neo4j/…`,
    `MSSQL_SA_PASSWORD` in a quoted `-e`, Oracle's `ORACLE_PWD`, Keycloak's bootstrap admin given
    before the command, InfluxDB's init token, Meilisearch's `--master-key` (and the key it
    generates), Algolia's `--admin-api-key`, Typesense's and ElevenLabs' headers, Brevo's `xkeysib-`,
    Braintree's `access_token$production$`, Alpaca's `APCA-API-SECRET-KEY`, PagerDuty's
    `routing_key`, Honeycomb's key inside `OTEL_EXPORTER_OTLP_HEADERS`, Rancher's bootstrap
    password, k3s' node token, qBittorrent's temporary WebUI password, `ansible_ssh_pass` in an
    inventory, sendmail's `AuthInfo`, `chamber write`, `wget --ftp-password=`, `vault kv put`,
    `gcloud secrets versions add` fed by `printf`, Samba's `net rpc password`, `caddy hash-password
    --plaintext`, `rabbitmqctl change_password`, `db.changeUserPassword`, `systemctl show -p
    Environment` and a Secret's base64 `data:` from `kubectl get -o yaml`."""
    user, host = login_parts(rng)
    choice = rng.randrange(33)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "")
    url_pw = pw.replace("#", "").replace("?", "")
    if choice == 0:
        return "password", [f"$ docker inspect shop-db --format '{{{{json .Config.Env}}}}' | jq .", "[",
                            f'  "POSTGRES_USER={user}",', f'  "POSTGRES_PASSWORD={pw}",',
                            '  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",', '  "LANG=en_US.utf8"', "]"], [pw]
    if choice == 1:
        v = base64.urlsafe_b64encode(rng.randbytes(24)).decode()
        return "password", ["Ana is inviting you to a scheduled Zoom meeting.", "Topic: Shop weekly", "Join Zoom Meeting",
                            f"https://us02web.zoom.us/j/{rand(rng, string.digits, 11)}?pwd={v}", "",
                            f"Meeting ID: {rand(rng, string.digits, 3)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}"], [v]
    if choice == 2:
        return "password", ["127.0.0.1:6379> CONFIG GET requirepass", '1) "requirepass"', f'2) "{pw}"', "127.0.0.1:6379>"], [pw]
    if choice == 3:
        v = "-".join(rand(rng, string.digits, 6) for _ in range(8))
        return "password", ["PS C:\\> manage-bde -protectors -get C:", "Volume C: [Windows]", "All Key Protectors", "",
                            "    Numerical Password:", f"      ID: {{{str(uuid.UUID(bytes=rng.randbytes(16))).upper()}}}", "      Password:",
                            f"        {v}"], [v]
    if choice == 4:
        return "password", ["  neo4j:", "    image: neo4j:5.24", "    environment:", f"      - NEO4J_AUTH=neo4j/{url_pw}",
                            "    ports:", '      - "7474:7474"'], [url_pw]
    if choice == 5:
        return "password", [f'$ docker run -e "ACCEPT_EULA=Y" -e "MSSQL_SA_PASSWORD={pw}" -p 1433:1433 -d mcr.microsoft.com/mssql/server:2022-latest',
                            rand(rng, HEX, 64)], [pw]
    if choice == 6:
        return "password", [f"$ docker run -d --name oracle -p 1521:1521 -e ORACLE_PWD={pw} container-registry.oracle.com/database/free:latest",
                            rand(rng, HEX, 64)], [pw]
    if choice == 7:
        return "password", [f"$ KC_BOOTSTRAP_ADMIN_USERNAME={user} KC_BOOTSTRAP_ADMIN_PASSWORD={pw} bin/kc.sh start-dev",
                            "2026-11-20 09:14:02,118 INFO  [io.quarkus] (main) Keycloak 26.0.5 on JVM started in 4.2s."], [pw]
    if choice == 8:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["      - DOCKER_INFLUXDB_INIT_MODE=setup", f"      - DOCKER_INFLUXDB_INIT_USERNAME={user}",
                           "      - DOCKER_INFLUXDB_INIT_ORG=acme", f"      - DOCKER_INFLUXDB_INIT_ADMIN_TOKEN={v}"], [v]
    if choice == 9:
        v = base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
        if rng.random() < 0.5:
            return "api_key", [f'$ ./meilisearch --db-path ./data.ms --master-key="{v}"', "Server listening on: \"http://localhost:7700\""], [v]
        return "api_key", ["We generated a secure master key for you (you can safely use this token):", "", f">> --master-key {v} <<", "",
                           "Restart Meilisearch with the argument above to use this new and secure master key."], [v]
    if choice == 10:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ algolia profile add --name shop --app-id {rand(rng, string.ascii_uppercase + string.digits, 10)} --admin-api-key {v}",
                           "✓ Profile 'shop' (7QXK) added successfully"], [v]
    if choice == 11:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f'$ curl -H "X-TYPESENSE-API-KEY: {v}" "http://localhost:8108/collections"', '[{"name":"products","num_documents":1042}]'], [v]
    if choice == 12:
        v = "sk_" + rand(rng, HEX, 48)
        return "api_key", ["$ curl -X POST https://api.elevenlabs.io/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM \\", f'    -H "xi-api-key: {v}" \\',
                           "    -H 'Content-Type: application/json' -d @line.json -o line.mp3"], [v]
    if choice == 13:
        v = "xkeysib-" + rand(rng, HEX, 64) + "-" + rand(rng, ALNUM, 16)
        return "api_key", ["# Brevo (transactional mail)", f"BREVO_API_KEY={v}", "BREVO_SENDER=shop@acme.io"], [v]
    if choice == 14:
        # (Scored on what follows the fixed prefix: `access_token$production$` repeats the line's
        # label, `access_token:`, which stays, so 8 characters of it are no leak; round 151.)
        key = rand(rng, string.ascii_lowercase + string.digits, 16) + "$" + rand(rng, HEX, 32)
        return "api_key", ["braintree:", "  environment: production", f"  access_token: access_token$production${key}"], [key]
    if choice == 15:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f'$ curl -H "APCA-API-KEY-ID: PK{rand(rng, string.ascii_uppercase + string.digits, 18)}" \\',
                           f'       -H "APCA-API-SECRET-KEY: {v}" https://paper-api.alpaca.markets/v2/account'], [v]
    if choice == 16:
        v = rand(rng, HEX, 32)
        return "api_key", ["receivers:", "  - name: oncall", "    pagerduty_configs:", f"      - routing_key: {v}", "        severity: critical"], [v]
    if choice == 17:
        v = rand(rng, ALNUM, 22)
        return "api_key", ["export OTEL_SERVICE_NAME=shop-api", "export OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io",
                           f'export OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team={v}"'], [v]
    if choice == 18:
        v = rand(rng, string.ascii_lowercase + string.digits, 54)
        return "password", ['$ docker logs rancher 2>&1 | grep "Bootstrap Password:"',
                            f"2026/11/20 09:14:02 [INFO] Bootstrap Password: {v}"], [v]
    if choice == 19:
        v = "K10" + rand(rng, HEX, 64) + "::server:" + rand(rng, HEX, 32)
        if rng.random() < 0.5:
            return "api_key", ["$ sudo cat /var/lib/rancher/k3s/server/node-token", v], [v]
        return "api_key", [f"$ curl -sfL https://get.k3s.io | K3S_URL=https://10.0.8.21:6443 K3S_TOKEN={v} sh -",
                           "[INFO]  Finding release for channel stable"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 9)
        return "password", ["******** Information ********", "To control qBittorrent, access the WebUI at: http://localhost:8080",
                            "The WebUI administrator username is: admin",
                            f"The WebUI administrator password was not set. A temporary password is provided for this session: {v}",
                            "You should set your own password in program preferences."], [v]
    if choice == 21:
        return "password", ["[web]", f"web01 ansible_host=10.0.8.21 ansible_user={user} ansible_ssh_pass={pw}",
                            "web02 ansible_host=10.0.8.22 ansible_user=deploy"], [pw]
    if choice == 22:
        return "password", ["$ sudo cat /etc/mail/authinfo", f'AuthInfo:smtp.acme.io "U:smmsp" "I:{user}" "P:{pw}" "M:PLAIN"'], [pw]
    if choice == 23:
        return "password", [f"$ chamber write shop db_password {pw}", "$ chamber list shop", "Key            Version  LastModified      User",
                            "db_password    3        11-20 09:14:02    ops"], [pw]
    if choice == 24:
        return "password", [f"$ wget --ftp-user={user} --ftp-password={pw} ftp://files.acme.io/backup.tar.gz",
                            "--2026-11-20 09:14:02--  ftp://files.acme.io/backup.tar.gz"], [pw]
    if choice == 25:
        return "password", [f"$ vault kv put -mount=secret shop/db username={user} password={pw}", "== Secret Path ==", "secret/data/shop/db",
                            "======= Metadata =======", "version            3"], [pw]
    if choice == 26:
        return "password", [f"$ printf '{pw}' | gcloud secrets versions add db-password --data-file=-",
                            "Created version [4] of the secret [db-password]."], [pw]
    if choice == 27:
        return "password", [f"$ net rpc password {user} '{pw}' -U 'ACME\\Administrator' -S dc01.acme.io", "Password for [ACME\\Administrator]:"], [pw]
    if choice == 28:
        return "password", [f"$ caddy hash-password --plaintext '{pw}'", "$2a$14$" + rand(rng, ALNUM + "./", 53)], [pw]
    if choice == 29:
        return "password", [f"$ sudo rabbitmqctl change_password {user} '{pw}'", f'Changing password for user "{user}" ...'], [pw]
    if choice == 30:
        return "password", ["shop> use admin", f'admin> db.changeUserPassword("{user}", "{pw}")', "{ ok: 1 }"], [pw]
    if choice == 31:
        return "password", ["$ systemctl show shop-api.service -p Environment",
                            f"Environment=LOG_LEVEL=info DB_HOST=db-03 DB_USER={user} DB_PASSWORD={pw} PORT=8080"], [pw]
    v = base64.b64encode(pw.encode()).decode()
    return "password", ["$ kubectl get secret shop-db -o yaml", "apiVersion: v1", "data:", f"  password: {v}",
                        f"  username: {base64.b64encode(user.encode()).decode()}", "kind: Secret"], [v]


def twenty_eighth_negative_case(rng):
    choice = rng.randrange(24)
    if choice == 0:
        return ["$ docker inspect shop-db --format '{{json .Config.Env}}' | jq .", "[",
                '  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",', '  "GOSU_VERSION=1.17",', '  "PG_MAJOR=17",',
                f'  "PG_SHA256={rand(rng, HEX, 64)}",', '  "PGDATA=/var/lib/postgresql/data"', "]"]
    if choice == 1:
        return ["Join Zoom Meeting", f"https://us02web.zoom.us/j/{rand(rng, string.digits, 11)}", "",
                f"Meeting ID: {rand(rng, string.digits, 3)} {rand(rng, string.digits, 4)} {rand(rng, string.digits, 4)}", "One tap mobile",
                f"+16469313860,,{rand(rng, string.digits, 11)}# US (New York)"]
    if choice == 2:
        return ["127.0.0.1:6379> CONFIG GET maxmemory*", '1) "maxmemory"', '2) "2147483648"', '3) "maxmemory-policy"', '4) "allkeys-lru"']
    if choice == 3:
        return ["PS C:\\> manage-bde -status C:", "Volume C: [Windows]", "    Conversion Status:    Fully Encrypted",
                "    Encryption Method:    XTS-AES 128", "    Protection Status:    Protection On", "    Key Protectors:",
                "        TPM", "        Numerical Password"]
    if choice == 4:
        return ["$ env | grep PWD", "OLDPWD=/home/ops", "PWD=/srv/shop/releases/20261120"]
    if choice == 5:
        return ["  neo4j:", "    image: neo4j:5.24", "    environment:", "      - NEO4J_AUTH=none", "      - NEO4J_server_memory_heap_max__size=2G"]
    if choice == 6:
        return ["Meilisearch 1.11.3", "Database path:        \"./data.ms\"", "Server listening on:  \"http://localhost:7700\"",
                "Environment:          \"development\"", f"Commit sha:           \"{rand(rng, HEX, 40)}\"",
                "Commit date:          \"2024-11-20T09:14:02Z\"", "Package version:      \"1.11.3\""]
    if choice == 7:
        return ["$ algolia indices list", "NAME       ENTRIES  SIZE     UPDATED AT", "products   1042     2.1 MB   2026-11-20",
                f"$ algolia profile add --name shop --app-id {rand(rng, string.ascii_uppercase + string.digits, 10)}"]
    if choice == 8:
        return ["receivers:", "  - name: oncall", "    pagerduty_configs:", "      - routing_key_file: /etc/alertmanager/pagerduty.key",
                "        severity: critical"]
    if choice == 9:
        return ["export OTEL_SERVICE_NAME=shop-api", "export OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io",
                'export OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-dataset=shop-api"']
    if choice == 10:
        return ["2026/11/20 09:14:02 [INFO] Rancher version v2.9.2 (" + rand(rng, HEX, 40) + ") is starting",
                "2026/11/20 09:14:02 [INFO] Listening on /tmp/log.sock", "2026/11/20 09:14:03 [INFO] Running in single server mode"]
    if choice == 11:
        return ["$ sudo k3s kubectl get nodes", "NAME     STATUS   ROLES                  AGE   VERSION",
                "web-01   Ready    control-plane,master   42d   v1.31.2+k3s1"]
    if choice == 12:
        return ["******** Information ********", "To control qBittorrent, access the WebUI at: http://localhost:8080",
                "WebUI: Now listening on IP: *, port: 8080"]
    if choice == 13:
        return ["[web]", "web01 ansible_host=10.0.8.21 ansible_user=deploy ansible_port=2222 ansible_python_interpreter=/usr/bin/python3",
                "web02 ansible_host=10.0.8.22 ansible_user=deploy ansible_ssh_private_key_file=~/.ssh/deploy_ed25519"]
    if choice == 14:
        return ["$ chamber list shop", "Key            Version  LastModified      User", "db_password    3        11-20 09:14:02    ops",
                "stripe_key     1        10-02 16:40:11    lena"]
    if choice == 15:
        return ["--2026-11-20 09:14:02--  ftp://files.acme.io/backup.tar.gz", "           => 'backup.tar.gz'",
                "Length: 1048576 (1.0M) (unauthoritative)", "2026-11-20 09:14:03 (2.4 MB/s) - 'backup.tar.gz' saved [1048576]"]
    if choice == 16:
        return ["$ vault kv get -mount=secret shop/db", "======= Metadata =======", "Key                Value", "---                -----",
                "created_time       2026-11-20T09:14:02.118Z", "destroyed          false", "version            3"]
    if choice == 17:
        return ["$ gcloud secrets versions list db-password", "NAME  STATE     CREATED              DESTROYED",
                "4     enabled   2026-11-20T09:14:02  -", "3     disabled  2026-10-02T16:40:11  -"]
    if choice == 18:
        return ["$ caddy hash-password", "Enter password:", "Confirm password:", "$2a$14$" + rand(rng, ALNUM + "./", 53)]
    if choice == 19:
        return ["$ sudo rabbitmqctl list_users", "Listing users ...", "user    tags", "ops     [administrator]", "shop    []"]
    if choice == 20:
        return ["$ systemctl show shop-api.service -p Environment", "Environment=LOG_LEVEL=info DB_HOST=db-03 PORT=8080 TZ=UTC"]
    if choice == 21:
        return ["$ kubectl get configmap shop-config -o yaml", "apiVersion: v1", "data:", "  CACHE_TTL: \"300\"", "  LOG_LEVEL: info",
                "kind: ConfigMap"]
    if choice == 22:
        return ["PS C:\\> manage-bde -protectors -get C: -Type TPM", "Volume C: [Windows]", "    TPM:",
                f"      ID: {{{str(uuid.UUID(bytes=rng.randbytes(16))).upper()}}}", "      PCR Validation Profile:", "        7, 11"]
    return ["$ sudo cat /etc/mail/authinfo", "# AuthInfo entries are kept in /etc/mail/authinfo.db", "$ ls -l /etc/mail/authinfo.db",
            "-rw-r----- 1 root smmsp 12288 Nov 20 09:14 /etc/mail/authinfo.db"]

def twenty_ninth_secret_case(rng):
    """The twenty-ninth pool (`--pool twenty-ninth`): written after the twenty-eighth pool's round,
    before any rule was run on it, from places none of the twenty-eight earlier pools has: Consul's
    `acl bootstrap` (a UUID that is a secret) and `CONSUL_HTTP_TOKEN`, Joomla's `configuration.php`,
    Cloudflare's `CF_API_TOKEN`, a browser's request and response headers (`sessionid`,
    `JSESSIONID`), `curl -b PHPSESSID=`, `heroku config:set`, Twilio's auth token, a `psql` table
    with a `remember_token` column, PowerShell's `$env:AZURE_DEVOPS_EXT_PAT`, `pip
    --extra-index-url` with a `__token__` login, `usermod -p "$(openssl passwd …)"`, Nextcloud's
    and Pi-hole's compose passwords, `EXPO_TOKEN=… eas build`, PayPal's client secret in `curl -u`,
    Pusher's app secret, Razorpay's `key_secret`, ccxt's `'secret'`, Neo4j's `basic_auth`,
    SurrealDB's `--pass`, QuestDB's `QDB_PG_PASSWORD`, Mailchimp's `anystring:` login, Zendesk's
    `/token:` login, Teleport's invite link, a chat's `login: user / password`, a table of accounts
    with a Password column, a Postman environment's `"type": "secret"`, Jenkins' `agent.jar
    -secret`, Windows' "Network security key", Fastly's token, a wiki page's `pw` and a mail
    provider's app password in a sentence."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "")
    if choice == 0:
        accessor, secret = (str(uuid.UUID(bytes=rng.randbytes(16))) for _ in range(2))
        return "api_key", ["$ consul acl bootstrap", f"AccessorID:       {accessor}", f"SecretID:         {secret}",
                           "Description:      Bootstrap Token (Global Management)", "Local:            false",
                           "Create Time:      2026-11-20 09:14:02.118 +0000 UTC", "Policies:",
                           "   00000000-0000-0000-0000-000000000001 - global-management"], [secret]
    if choice == 1:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ export CONSUL_HTTP_TOKEN={v}", "$ consul kv get shop/config/log_level", "info"], [v]
    if choice == 2:
        secret = rand(rng, ALNUM, 16)
        return "password", ["<?php", "class JConfig {", "\tpublic $dbtype = 'mysqli';", "\tpublic $host = 'localhost';",
                            f"\tpublic $user = '{user}';", f"\tpublic $password = '{pw}';", "\tpublic $db = 'joomla';",
                            f"\tpublic $secret = '{secret}';"], [pw, secret]
    if choice == 3:
        v = rand(rng, ALNUM + "_-", 40)
        return "api_key", [f"$ export CF_API_TOKEN={v}", "$ flarectl zone list", "ID                                NAME      PLAN"], [v]
    if choice == 4:
        v = rand(rng, string.ascii_lowercase + string.digits, 32)
        return "api_key", ["▼ Request Headers", "accept: text/html,application/xhtml+xml", "accept-language: en-GB,en;q=0.9",
                           f"cookie: csrftoken={rand(rng, ALNUM, 32)}; sessionid={v}", "referer: https://shop.acme.io/admin/"], [v]
    if choice == 5:
        v = rand(rng, "0123456789ABCDEF", 32)
        return "api_key", ["▼ Response Headers", "content-type: text/html;charset=UTF-8", "date: Fri, 20 Nov 2026 09:14:02 GMT",
                           f"set-cookie: JSESSIONID={v}; Path=/shop; Secure; HttpOnly", "x-frame-options: SAMEORIGIN"], [v]
    if choice == 6:
        v = rand(rng, string.ascii_lowercase + string.digits, 26)
        return "api_key", [f"$ curl -s -b 'PHPSESSID={v}' https://{host}/admin/orders.php | head -3", "<!DOCTYPE html>", "<html lang=\"en\">"], [v]
    if choice == 7:
        v = rand(rng, HEX, 64)
        return "api_key", [f"$ heroku config:set SESSION_SECRET={v} -a shop-api", "Setting SESSION_SECRET and restarting ⬢ shop-api... done, v42",
                           f"SESSION_SECRET: {v}"], [v]
    if choice == 8:
        v = rand(rng, HEX, 32)
        return "api_key", ["# .env", f"TWILIO_ACCOUNT_SID=AC{rand(rng, HEX, 32)}", f"TWILIO_AUTH_TOKEN={v}", "TWILIO_FROM=+14155550123"], [v]
    if choice == 9:
        v = rand(rng, ALNUM, 60)
        return "api_key", ["shop=> select id, email, remember_token from users limit 2;",
                           " id |      email       |                        remember_token",
                           "----+------------------+--------------------------------------------------------------",
                           f"  1 | {user}@acme.io | {v}", "  2 | omar@acme.io     |", "(2 rows)"], [v]
    if choice == 10:
        v = rand(rng, string.ascii_lowercase + string.digits, 52)
        return "api_key", [f"PS C:\\src\\shop> $env:AZURE_DEVOPS_EXT_PAT = '{v}'",
                           "PS C:\\src\\shop> az devops login --organization https://dev.azure.com/acme"], [v]
    if choice == 11:
        v = rand(rng, ALNUM + "-_", 20)
        return "api_key", [f"$ pip install --extra-index-url https://__token__:{v}@gitlab.acme.io/api/v4/projects/42/packages/pypi/simple shop-lib",
                           "Looking in indexes: https://pypi.org/simple, https://__token__:****@gitlab.acme.io/api/v4/projects/42/packages/pypi/simple"], [v]
    if choice == 12:
        return "password", [f"$ sudo usermod -p \"$(openssl passwd -6 '{pw}')\" {user}", f"$ sudo chage -d 0 {user}"], [pw]
    if choice == 13:
        return "password", ["  nextcloud:", "    image: nextcloud:30-apache", "    environment:", "      - MYSQL_HOST=db",
                            f"      - NEXTCLOUD_ADMIN_USER={user}", f"      - NEXTCLOUD_ADMIN_PASSWORD={pw}",
                            "      - NEXTCLOUD_TRUSTED_DOMAINS=cloud.acme.io"], [pw]
    if choice == 14:
        return "password", ["  pihole:", "    image: pihole/pihole:latest", "    environment:", "      TZ: 'Europe/London'",
                            f"      WEBPASSWORD: '{pw}'", "    volumes:", "      - './etc-pihole:/etc/pihole'"], [pw]
    if choice == 15:
        v = rand(rng, ALNUM + "_-", 40)
        return "api_key", [f"$ EXPO_TOKEN={v} eas build --platform ios --non-interactive", "✔ Logged in as acme-ci (robot)"], [v]
    if choice == 16:
        cid, secret = "A" + rand(rng, ALNUM + "-_", 79), "E" + rand(rng, ALNUM + "-_", 79)
        return "api_key", ["$ curl -v https://api-m.paypal.com/v1/oauth2/token \\", f'    -u "{cid}:{secret}" \\',
                           '    -H "Content-Type: application/x-www-form-urlencoded" -d "grant_type=client_credentials"'], [secret]
    if choice == 17:
        v = rand(rng, HEX, 20)
        return "api_key", ["# config/broadcasting (.env)", f"PUSHER_APP_ID={rng.randint(1000000, 1999999)}", f"PUSHER_APP_KEY={rand(rng, HEX, 20)}",
                           f"PUSHER_APP_SECRET={v}", "PUSHER_APP_CLUSTER=eu"], [v]
    if choice == 18:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["const Razorpay = require('razorpay');", "const razorpay = new Razorpay({",
                           f"  key_id: 'rzp_live_{rand(rng, ALNUM, 14)}',", f"  key_secret: '{v}',", "});"], [v]
    if choice == 19:
        v = rand(rng, ALNUM + "+/", 86) + "=="
        return "api_key", [">>> import ccxt", ">>> kraken = ccxt.kraken({", f"...     'apiKey': '{rand(rng, ALNUM + '+/', 56)}',",
                           f"...     'secret': '{v}',", "... })", ">>> kraken.fetch_balance()['total']['EUR']", "1042.17"], [v]
    if choice == 20:
        return "password", ["from neo4j import GraphDatabase, basic_auth", "",
                            f'driver = GraphDatabase.driver("bolt://db.acme.io:7687", auth=basic_auth("neo4j", "{pw}"))',
                            "driver.verify_connectivity()"], [pw]
    if choice == 21:
        return "password", [f"$ surreal start --user root --pass '{pw}' rocksdb:/var/lib/surreal/shop.db",
                            " .d8888b.                                             888 8888888b.  888888b.",
                            "2026-11-20T09:14:02.118Z INFO surreal::env: Running 2.1.2 for linux on x86_64"], [pw]
    if choice == 22:
        return "password", ["  questdb:", "    image: questdb/questdb:8.2.0", "    environment:", f"      - QDB_PG_USER={user}",
                            f"      - QDB_PG_PASSWORD={pw}", "    ports:", '      - "8812:8812"'], [pw]
    if choice == 23:
        v = rand(rng, HEX, 32) + "-us" + str(rng.randint(1, 21))
        return "api_key", [f'$ curl -sS --user "anystring:{v}" \\', f"    https://{v.split('-')[1]}.api.mailchimp.com/3.0/lists | jq '.lists[].name'",
                           '"Shop newsletter"'], [v]
    if choice == 24:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f'$ curl https://acme.zendesk.com/api/v2/tickets.json -u {user}@acme.io/token:{v}',
                           '{"tickets":[{"id":48213,"subject":"Refund for order 1042"}]}'], [v]
    if choice == 25:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ tctl users add {user} --roles=access,editor --logins=root,ubuntu",
                           f'User "{user}" has been created but requires a password. Share this URL with the user to complete user setup,',
                           "link is valid for 1h:", f"https://teleport.acme.io:443/web/invite/{v}", "",
                           "NOTE: Make sure teleport.acme.io:443 points at a Teleport proxy which users can access."], [v]
    if choice == 26:
        return "password", ["Omar Haddad  10:42 AM", "can someone send me the staging admin login?", "Ana Lopez  10:44 AM",
                            f"login: {user} / {pw}", "please change it after the demo"], [pw]
    if choice == 27:
        return "password", ["Site              User                Password            Notes",
                            f"Router admin      {user:<20}{pw:<20}living room", "Printer (EWS)     admin               —                   default"], [pw]
    if choice == 28:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["{", '  "name": "Shop (staging)",', '  "values": [', '    { "key": "baseUrl", "value": "https://staging.acme.io", "type": "default", "enabled": true },',
                           f'    {{ "key": "apiKey", "value": "{v}", "type": "secret", "enabled": true }}', "  ]", "}"], [v]
    if choice == 29:
        v = rand(rng, HEX, 64)
        return "api_key", [f"$ java -jar agent.jar -url http://jenkins.acme.io:8080/ -secret {v} -name build-01 -webSocket -workDir /var/lib/jenkins",
                           "Nov 20, 2026 9:14:02 AM hudson.remoting.jnlp.Main createEngine", "INFO: Setting up agent: build-01"], [v]
    if choice == 30:
        return "password", ["Home-5G Wireless Network Properties", "Connection    Security", "",
                            "Security type:          WPA2-Personal", "Encryption type:        AES", "",
                            f"Network security key    {pw}", "", "☑ Show characters"], [pw]
    if choice == 31:
        v = rand(rng, ALNUM + "_-", 32)
        return "api_key", [f"$ export FASTLY_API_TOKEN={v}", "$ fastly service list", "NAME   ID                      TYPE   ACTIVE VERSION"], [v]
    if choice == 32:
        return "password", ["Staging database", "Host db-03.staging.acme.io, port 5432, database shop.",
                            f"Read-only access: user report, pw {pw} (rotated every month by Ana)."], [pw]
    v = rand(rng, ALNUM, 24)
    return "password", ["The shared mailbox moved to Fastmail.", f"Username support@acme.io, app password {v} (for Thunderbird only)."], [v]


def twenty_ninth_negative_case(rng):
    choice = rng.randrange(27)
    if choice == 0:
        return ["$ consul acl token list", f"AccessorID:       {uuid.UUID(bytes=rng.randbytes(16))}", "SecretID:         <hidden>",
                "Description:      Anonymous Token", "Local:            false", "Create Time:      2026-11-20 09:14:02.118 +0000 UTC"]
    if choice == 1:
        return ["[admin@MikroTik] > /user print", "Columns: NAME, GROUP, LAST-LOGGED-IN",
                "# NAME   GROUP  LAST-LOGGED-IN", ";;; system default user", "0 admin  full   2026-11-20 09:14:02"]
    if choice == 2:
        return ["<?php", "class JConfig {", "\tpublic $sitename = 'Shop';", "\tpublic $dbtype = 'mysqli';", "\tpublic $host = 'localhost';",
                "\tpublic $user = 'joomla';", "\tpublic $db = 'joomla';", "\tpublic $dbprefix = 'jos_';"]
    if choice == 3:
        return ["# .env", f"CF_ACCOUNT_ID={rand(rng, HEX, 32)}", f"CF_ZONE_ID={rand(rng, HEX, 32)}", "CF_ZONE_NAME=acme.io"]
    if choice == 4:
        return ["▼ Request Headers", "accept: application/json", f'if-none-match: W/"{rand(rng, HEX, 16)}"',
                f"x-request-id: {uuid.UUID(bytes=rng.randbytes(16))}", "user-agent: Mozilla/5.0 (X11; Linux x86_64)"]
    if choice == 5:
        return ["▼ Response Headers", "set-cookie: cookie_consent=accepted; Path=/; Max-Age=31536000; SameSite=Lax",
                f"set-cookie: _ga=GA1.1.{rng.randint(100000000, 999999999)}.{rng.randint(1700000000, 1799999999)}; Path=/",
                "cache-control: private, max-age=0"]
    if choice == 6:
        challenge = base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
        return [f"https://accounts.google.com/o/oauth2/v2/auth?client_id={rng.randint(10**11, 10**12 - 1)}-{rand(rng, string.ascii_lowercase + string.digits, 32)}.apps.googleusercontent.com",
                f"&redirect_uri=https%3A%2F%2Fshop.acme.io%2Fcallback&response_type=code&scope=openid%20email&code_challenge={challenge}&code_challenge_method=S256"]
    if choice == 7:
        return ["$ heroku releases -a shop-api", "=== shop-api Releases - Current: v42", "v42  Set SESSION_SECRET config vars  ana@acme.io  2026/11/20 09:14:02",
                f"v41  Deploy {rand(rng, HEX, 8)}                    ana@acme.io  2026/11/19 16:40:11"]
    if choice == 8:
        return ["# .env", f"TWILIO_ACCOUNT_SID=AC{rand(rng, HEX, 32)}", f"TWILIO_MESSAGING_SERVICE_SID=MG{rand(rng, HEX, 32)}", "TWILIO_FROM=+14155550123"]
    if choice == 9:
        return ["shop=> select id, email, created_at from users limit 2;", " id |      email       |         created_at",
                "----+------------------+----------------------------", "  1 | ana@acme.io      | 2026-11-20 09:14:02.118+00",
                "  2 | omar@acme.io     | 2026-10-02 16:40:11.52+00", "(2 rows)"]
    if choice == 10:
        return ["PS C:\\src\\shop> $env:AZURE_DEVOPS_ORG = 'https://dev.azure.com/acme'",
                "PS C:\\src\\shop> az devops configure --defaults project=shop"]
    if choice == 11:
        return ["$ pip install --extra-index-url https://download.pytorch.org/whl/cu121 torch==2.5.1",
                "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121"]
    if choice == 12:
        return ["$ getent passwd ana", "ana:x:1000:1000:Ana Lopez:/home/ana:/bin/bash", "$ sudo chage -l ana | head -2",
                "Last password change                                    : Nov 20, 2026", "Password expires                                        : never"]
    if choice == 13:
        return ["$ docker compose exec -u www-data nextcloud php occ status", "  - installed: true", "  - version: 30.0.2.2",
                "  - versionstring: 30.0.2", f"  - instanceid: oc{rand(rng, string.ascii_lowercase + string.digits, 10)}",
                "  - maintenance: false", "  - needsDbUpgrade: false"]
    if choice == 14:
        return ["  pihole:", "    image: pihole/pihole:latest", "    environment:", "      TZ: 'Europe/London'",
                "      FTLCONF_webserver_port: '80'", "      FTLCONF_dns_listeningMode: 'all'"]
    if choice == 15:
        build = uuid.UUID(bytes=rng.randbytes(16))
        return ["$ eas build --platform ios --non-interactive", "✔ Build finished", f"Build ID: {build}",
                f"https://expo.dev/accounts/acme/projects/shop/builds/{build}"]
    if choice == 16:
        return ['{"id":"' + rand(rng, string.ascii_uppercase + string.digits, 17) + '","status":"CREATED","links":[',
                '{"href":"https://api-m.paypal.com/v2/checkout/orders/' + rand(rng, string.ascii_uppercase + string.digits, 17) + '","rel":"self","method":"GET"}]}']
    if choice == 17:
        return [f"const pusher = new Pusher('{rand(rng, HEX, 20)}', {{", "  cluster: 'eu',", "  forceTLS: true,", "});",
                "const channel = pusher.subscribe('orders');"]
    if choice == 18:
        return ['{', f'  "id": "order_{rand(rng, ALNUM, 14)}",', '  "entity": "order",', '  "amount": 50000,', '  "currency": "INR",',
                f'  "receipt": "rcpt_{rng.randint(1000, 9999)}",', '  "status": "created"', '}']
    if choice == 19:
        return [">>> kraken.fetch_ticker('BTC/EUR')", f"{{'symbol': 'BTC/EUR', 'timestamp': {rng.randint(1700000000000, 1799999999999)}, 'bid': 91012.5, 'ask': 91013.1}}"]
    if choice == 20:
        return ["# .env", "NEO4J_URI=bolt://db.acme.io:7687", "NEO4J_USERNAME=neo4j", "NEO4J_DATABASE=shop"]
    if choice == 21:
        return ["$ tsh status", "> Profile URL:        https://teleport.acme.io:443", "  Logged in as:       ana",
                "  Cluster:            acme", "  Roles:              access, editor",
                "  Valid until:        2026-11-20 21:14:02 +0000 UTC [valid for 12h0m0s]"]
    if choice == 22:
        return ["Audience name     Shop newsletter", f"Audience ID       {rand(rng, HEX, 10)}", "Subscribers       1,042",
                "Default from      shop@acme.io"]
    if choice == 23:
        return ["Omar Haddad  10:42 AM", "can someone send me the staging admin login?", "Ana Lopez  10:44 AM",
                "it's in 1Password under Staging Admin, ask Lena for access"]
    if choice == 24:
        return ["Site              User                Last changed        Notes", "Router admin      admin               2026-11-20          living room",
                "Printer (EWS)     admin               —                   default"]
    if choice == 25:
        return ["{", '  "name": "Shop (staging)",', '  "values": [', '    { "key": "baseUrl", "value": "https://staging.acme.io", "type": "default", "enabled": true },',
                f'    {{ "key": "orderId", "value": "{rng.randint(100000, 999999)}", "type": "default", "enabled": true }}', "  ]", "}"]
    return ["Home-5G Wireless Network Properties", "Connection    Security", "", "Security type:          WPA2-Personal",
            "Encryption type:        AES", "", "Network security key    ••••••••••", "", "☐ Show characters"]


def thirtieth_secret_case(rng):
    """The thirtieth pool (`--pool thirtieth`): written after the twenty-ninth pool's round, before
    any rule was run on it, from places none of the twenty-nine earlier pools has: a Kubernetes
    container's `args:` list, a Dockerfile's `ARG NPM_TOKEN=`, a `terraform.tfvars` file, Python's
    `HTTPBasicAuth`, browser tests that type a password (Selenium's `send_keys`, Playwright's
    `page.fill`, Cypress's `.type`), `pwgen`'s output, the password managers of Chrome, Firefox,
    macOS (Keychain Access) and GNOME (Seahorse) showing a password, Google Cloud Storage's and
    CloudFront's signed URLs, a guest Wi-Fi voucher, Strapi's `APP_KEYS` list, Ghost's
    `mail__options__auth__pass`, n8n's encryption key, Metabase's `MB_ENCRYPTION_SECRET_KEY`,
    Superset's database URI, Outline's `UTILS_SECRET`, CircleCI's `Circle-Token` header, Nomad's
    `acl bootstrap` (`Secret ID = …`), `b2 authorize-account` with its key as a bare argument,
    Junos' `plain-text-password-value`, Hardhat's Etherscan key, Plaid's `secret=`, an Infura
    endpoint, a Discord bot's `client.login`, `RAILS_MASTER_KEY`, 1Password's `op read`, an AWS
    session token, `netlify deploy --auth` and Nextcloud's `OC_PASS`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "")
    if choice == 0:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["      containers:", "        - name: exporter", "          image: acme/billing-exporter:1.4.2",
                           f'          args: ["--api-key", "{v}", "--region", "eu-west-1"]', "          ports:",
                           "            - containerPort: 9102"], [v]
    if choice == 1:
        v = "npm_" + rand(rng, ALNUM, 36)
        return "api_key", ["FROM node:20-alpine AS build", f"ARG NPM_TOKEN={v}", "WORKDIR /app",
                           'RUN echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc && npm ci'], [v]
    if choice == 2:
        return "password", ["# terraform.tfvars", 'region         = "eu-west-1"', 'instance_class = "db.t4g.medium"',
                            f'db_username    = "{user}"', f'db_password    = "{pw}"', "multi_az       = false"], [pw]
    if choice == 3:
        return "password", ["import requests", "from requests.auth import HTTPBasicAuth", "",
                            f'r = requests.get("https://{host}/api/v1/orders", auth=HTTPBasicAuth("{user}", "{pw}"))',
                            "print(r.status_code, len(r.json()))"], [pw]
    if choice == 4:
        return "password", ['driver.get("https://staging.acme.io/login")', f'driver.find_element(By.ID, "email").send_keys("{user}@acme.io")',
                            f'driver.find_element(By.ID, "password").send_keys("{pw}")', 'driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()'], [pw]
    if choice == 5:
        return "password", ["test('admin can refund an order', async ({ page }) => {", "  await page.goto('/login');",
                            f"  await page.fill('#email', '{user}@acme.io');", f"  await page.fill('#password', '{pw}');",
                            "  await page.click('text=Sign in');"], [pw]
    if choice == 6:
        return "password", ["it('logs in as the shop admin', () => {", "  cy.visit('/login')", f"  cy.get('input[name=email]').type('{user}@acme.io')",
                            f"  cy.get('input[name=password]').type('{pw}')", "  cy.contains('Sign in').click()", "})"], [pw]
    if choice == 7:
        v = rand(rng, ALNUM, 16)
        return "password", ["$ pwgen -s -1 16", v, f"$ sudo passwd {user}", "New password:", "Retype new password:",
                            "passwd: password updated successfully"], [v]
    if choice == 8:
        return "password", ["Password Manager", "acme.io", "", "Username", f"{user}@acme.io", "", "Password", pw, "",
                            "Note", "No note added", "", "Edit      Delete"], [pw]
    if choice == 9:
        return "password", ["shop.acme.io", "Website address", "https://shop.acme.io", "Username", user, "Password", pw,
                            "Created: 20/11/2026   Last modified: 20/11/2026   Last used: 20/11/2026"], [pw]
    if choice == 10:
        return "password", ["shop.acme.io", "Attributes   Access Control", f"Name:       shop.acme.io", "Kind:       Internet password",
                            f"Account:    {user}", "Where:      https://shop.acme.io", "Comments:", f"☑ Show password:  {pw}"], [pw]
    if choice == 11:
        return "password", ["Passwords and Keys", "Login", f"Password for '{user}' on 'shop.acme.io'", "", "Password", pw,
                            "Details", "  Server: shop.acme.io   Protocol: https   Created: 20 Nov 2026"], [pw]
    if choice == 12:
        v = rand(rng, HEX, 512)
        return "api_key", ["$ gsutil signurl -d 1h sa-key.json gs://shop-exports/orders-2026-11.csv",
                           "URL\tHTTP Method\tExpiration\tSigned URL",
                           "gs://shop-exports/orders-2026-11.csv\tGET\t2026-11-20 10:14:02\thttps://storage.googleapis.com/shop-exports/orders-2026-11.csv"
                           f"?x-goog-signature={v}&x-goog-algorithm=GOOG4-RSA-SHA256&x-goog-credential=exports%40acme-shop.iam.gserviceaccount.com"
                           "%2F20261120%2Feurope-west1%2Fstorage%2Fgoog4_request&x-goog-date=20261120T091402Z&x-goog-expires=3600&x-goog-signedheaders=host"], [v]
    if choice == 13:
        v = rand(rng, ALNUM + "-~_", 172)
        return "api_key", ["Download your invoice (link valid for 24 hours):",
                           f"https://d1x2y3z4example.cloudfront.net/invoices/INV-1042.pdf?Expires=1732180442&Signature={v}&Key-Pair-Id=K2JCJMDEHXQW5F"], [v]
    if choice == 14:
        v = "-".join(rand(rng, string.ascii_uppercase + string.digits, 4) for _ in range(3))
        return "password", ["Acme Hotel · Guest Wi-Fi", "Network:  Acme-Guest", f"Voucher code:  {v}", "Valid for 3 days · up to 2 devices",
                            "Room 214 · printed 20/11/2026 09:14"], [v]
    if choice == 15:
        keys = [base64.b64encode(rng.randbytes(16)).decode() for _ in range(4)]
        return "api_key", ["HOST=0.0.0.0", "PORT=1337", f"APP_KEYS={','.join(keys)}", f"API_TOKEN_SALT={base64.b64encode(rng.randbytes(16)).decode()}",
                           "DATABASE_CLIENT=postgres"], keys
    if choice == 16:
        return "password", ["    environment:", "      url: https://blog.acme.io", "      mail__transport: SMTP",
                            "      mail__options__service: Mailgun", "      mail__options__auth__user: postmaster@mg.acme.io",
                            f"      mail__options__auth__pass: {pw}"], [pw]
    if choice == 17:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["# n8n/.env", "N8N_HOST=n8n.acme.io", "N8N_PROTOCOL=https", f"N8N_ENCRYPTION_KEY={v}", "GENERIC_TIMEZONE=Europe/London"], [v]
    if choice == 18:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ docker run -d -p 3000:3000 \\", "    -e MB_DB_TYPE=postgres -e MB_DB_HOST=db \\",
                           f'    -e MB_ENCRYPTION_SECRET_KEY="{v}" \\', "    --name metabase metabase/metabase"], [v]
    if choice == 19:
        return "password", ["# superset_config.py", "ROW_LIMIT = 5000",
                            f"SQLALCHEMY_DATABASE_URI = 'postgresql+psycopg2://superset:{pw}@db:5432/superset'",
                            "WTF_CSRF_ENABLED = True"], [pw]
    if choice == 20:
        v = rand(rng, HEX, 64)
        return "api_key", ["URL=https://docs.acme.io", "PORT=3000", f"SECRET_KEY={rand(rng, HEX, 64)}", f"UTILS_SECRET={v}",
                           "FORCE_HTTPS=true"], [v]
    if choice == 21:
        v = "CCIPAT_" + rand(rng, ALNUM, 22) + "_" + rand(rng, HEX, 40)
        return "api_key", [f'$ curl -s -H "Circle-Token: {v}" https://circleci.com/api/v2/me | jq .login', f'"{user}"'], [v]
    if choice == 22:
        accessor, secret = (str(uuid.UUID(bytes=rng.randbytes(16))) for _ in range(2))
        return "api_key", ["$ nomad acl bootstrap", f"Accessor ID  = {accessor}", f"Secret ID    = {secret}", "Name         = Bootstrap Token",
                           "Type         = management", "Global       = true", "Create Time  = 2026-11-20 09:14:02.118 +0000 UTC"], [secret]
    if choice == 23:
        v = "K005" + rand(rng, ALNUM + "/+", 27)
        return "api_key", [f"$ b2 account authorize 005{rand(rng, HEX, 12)}0000000003 {v}",
                           "Using https://api.backblazeb2.com"], [v]
    if choice == 24:
        return "password", ["[edit]", f'ana@mx-edge01# set system login user {user} authentication plain-text-password-value "{pw}"',
                            "", "[edit]", "ana@mx-edge01# commit check", "configuration check succeeds"], [pw]
    if choice == 25:
        v = rand(rng, string.ascii_uppercase + string.digits, 34)
        return "api_key", ["module.exports = {", '  solidity: "0.8.24",', "  networks: { sepolia: { url: process.env.SEPOLIA_URL, accounts: [process.env.PRIVATE_KEY] } },",
                           f'  etherscan: {{ apiKey: "{v}" }},', "};"], [v]
    if choice == 26:
        v = rand(rng, HEX, 30)
        return "api_key", ["from plaid.api import plaid_api", "configuration = plaid.Configuration(", "    host=plaid.Environment.Sandbox,",
                           f"    api_key={{'clientId': '{rand(rng, HEX, 24)}', 'secret': '{v}'}},", ")"], [v]
    if choice == 27:
        v = rand(rng, HEX, 32)
        return "api_key", ['import { ethers } from "ethers";', f'const provider = new ethers.JsonRpcProvider("https://mainnet.infura.io/v3/{v}");',
                           "console.log(await provider.getBlockNumber());"], [v]
    if choice == 28:
        v = (base64.b64encode(str(rng.randint(10**17, 10**18 - 1)).encode()).decode().rstrip("=") + "." + rand(rng, ALNUM + "-_", 6)
             + "." + rand(rng, ALNUM + "-_", 38))
        return "api_key", ["const { Client, GatewayIntentBits } = require('discord.js');",
                           "const client = new Client({ intents: [GatewayIntentBits.Guilds] });",
                           "client.once('ready', () => console.log(`Logged in as ${client.user.tag}`));", f"client.login('{v}');"], [v]
    if choice == 29:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ RAILS_MASTER_KEY={v} bin/rails credentials:show", "secret_key_base: <redacted by Rails 8>",
                           "aws:", "  region: eu-west-1"], [v]
    if choice == 30:
        return "password", ['$ op read "op://Shop/Staging DB/password"', pw, '$ op read "op://Shop/Staging DB/username"', user], [pw]
    if choice == 31:
        v = "IQoJb3JpZ2luX2VjE" + rand(rng, ALNUM + "/+", 300) + "="
        return "api_key", ["$ export AWS_ACCESS_KEY_ID=ASIA" + rand(rng, string.ascii_uppercase + "234567", 16),
                           f"$ export AWS_SECRET_ACCESS_KEY={rand(rng, ALNUM + '/+', 40)}", f"$ export AWS_SESSION_TOKEN={v}",
                           "$ aws s3 ls s3://shop-exports/"], [v]
    if choice == 32:
        v = "nfp_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ netlify deploy --prod --dir dist --auth {v}", "Deploy path:        /home/ana/shop/dist",
                           "✔ Deploy is live!"], [v]
    return "password", [f"$ export OC_PASS='{pw}'",
                        f'$ sudo -E -u www-data php occ user:add --password-from-env --display-name="Lena Berg" --group="staff" {user}',
                        f'The user "{user}" was created successfully'], [pw]


def thirtieth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["      containers:", "        - name: exporter", "          image: acme/billing-exporter:1.4.2",
                '          args: ["--region", "eu-west-1", "--log-level", "debug", "--listen", ":9102"]']
    if choice == 1:
        return ["FROM node:20-alpine AS build", "ARG NODE_ENV=production", f"ARG GIT_COMMIT={rand(rng, HEX, 40)}",
                "LABEL org.opencontainers.image.revision=$GIT_COMMIT", "RUN npm ci --omit=dev"]
    if choice == 2:
        return ["# terraform.tfvars", 'region        = "eu-west-1"', 'instance_type = "t3.micro"',
                f'ami_id        = "ami-0{rand(rng, HEX, 16)}"', f'vpc_id        = "vpc-0{rand(rng, HEX, 16)}"']
    if choice == 3:
        return ["import requests", "", 'r = requests.get("https://api.acme.io/v1/orders", params={"page": 2, "per_page": 50},',
                '                 headers={"Accept": "application/json"}, timeout=10)', "print(r.status_code)"]
    if choice == 4:
        return ['driver.find_element(By.ID, "email").send_keys("ana@acme.io")',
                'driver.find_element(By.ID, "search").send_keys("blue mug 1042")', 'driver.find_element(By.ID, "go").click()']
    if choice == 5:
        return ["  await page.fill('#search', 'blue mug');", "  await page.fill('#coupon', 'WINTER-2026');", "  await page.click('text=Apply');"]
    if choice == 6:
        return ["  cy.get('#postcode').type('SW1A 1AA')", f"  cy.get('#order').type('{rng.randint(100000, 999999)}')", "  cy.contains('Track').click()"]
    if choice == 7:
        return ["$ uuidgen", str(uuid.UUID(bytes=rng.randbytes(16))), "$ date +%s", str(rng.randint(1700000000, 1799999999)),
                "$ git rev-parse --short HEAD", rand(rng, HEX, 7)]
    if choice == 8:
        return ["Password Manager", "acme.io", "", "Username", "ana@acme.io", "", "Password", "••••••••••••", "", "Note", "No note added"]
    if choice == 9:
        return ["shop.acme.io", "Website address", "https://shop.acme.io", "Username", "ana", "Password", "••••••••",
                "Created: 20/11/2026   Last modified: 20/11/2026   Last used: 20/11/2026"]
    if choice == 10:
        return ["shop.acme.io", "Attributes   Access Control", "Name:       shop.acme.io", "Kind:       Internet password",
                "Account:    ana", "Where:      https://shop.acme.io", "☐ Show password:"]
    if choice == 11:
        return ["$ gsutil ls -l gs://shop-exports/", f"    48213  2026-11-20T09:14:02Z  gs://shop-exports/orders-2026-11.csv",
                f"https://storage.googleapis.com/shop-assets/img/logo.png?generation={rng.randint(10**15, 10**16 - 1)}"]
    if choice == 12:
        return ['<script src="https://d1x2y3z4example.cloudfront.net/_next/static/chunks/main-' + rand(rng, HEX, 16) + '.js"></script>',
                f'<link rel="stylesheet" href="/assets/app.css?v={rand(rng, HEX, 8)}">']
    if choice == 13:
        return ["Acme Hotel · Booking confirmation", f"Booking reference:  {rand(rng, string.ascii_uppercase + string.digits, 8)}",
                "Check-in: Fri 20 Nov 2026 from 15:00", "Room 214 · 2 guests"]
    if choice == 14:
        return ["HOST=0.0.0.0", "PORT=1337", "DATABASE_CLIENT=postgres", "DATABASE_HOST=db", "DATABASE_NAME=strapi"]
    if choice == 15:
        return ["    environment:", "      url: https://blog.acme.io", "      mail__transport: SMTP", "      mail__options__service: Mailgun",
                "      mail__options__auth__user: postmaster@mg.acme.io"]
    if choice == 16:
        return ["# n8n/.env", "N8N_HOST=n8n.acme.io", "N8N_PORT=5678", "WEBHOOK_URL=https://n8n.acme.io/", "GENERIC_TIMEZONE=Europe/London"]
    if choice == 17:
        return ["$ docker run -d -p 3000:3000 \\", "    -e MB_DB_TYPE=postgres -e MB_DB_HOST=db -e MB_SITE_URL=https://bi.acme.io \\",
                "    --name metabase metabase/metabase"]
    if choice == 18:
        return ["# superset_config.py", "ROW_LIMIT = 5000", "SQLALCHEMY_DATABASE_URI = 'sqlite:////app/superset_home/superset.db'",
                "FEATURE_FLAGS = {'ALERT_REPORTS': True}"]
    if choice == 19:
        return ["version: 2.1", "jobs:", "  test:", "    docker:", "      - image: cimg/node:20.11", "    steps:", "      - checkout",
                "      - run: npm test -- --ci", '      - run: echo "built ${CIRCLE_SHA1:0:7}"']
    if choice == 20:
        nodes = [str(uuid.UUID(bytes=rng.randbytes(16))) for _ in range(2)]
        return ["$ nomad node status", "ID        Node Pool  DC   Name       Class   Drain  Eligibility  Status",
                f"{nodes[0][:8]}  default    eu1  worker-01  <none>  false  eligible     ready",
                f"{nodes[1][:8]}  default    eu1  worker-02  <none>  false  eligible     ready", f"$ nomad node status -self | grep ID", f"ID              = {nodes[0]}"]
    if choice == 21:
        return ["$ b2 file info b2://shop-backups/2026/11/20/db.sql.gz",
                f'  "fileId": "4_z{rand(rng, HEX, 24)}_f{rand(rng, HEX, 17)}_d20261120_m091402_c002_v0001170_t0010_u01732094042118",',
                '  "contentSha1": "' + rand(rng, HEX, 40) + '",', '  "size": 48213007']
    if choice == 22:
        return ["ana@mx-edge01> show configuration system | display set", "set system host-name mx-edge01",
                "set system login user ana class super-user", "set system services ssh root-login deny"]
    if choice == 23:
        return ["Contract deployed to: 0x" + rand(rng, HEX, 40), "Transaction hash: 0x" + rand(rng, HEX, 64),
                f"Block: {rng.randint(7000000, 7999999)}   Gas used: {rng.randint(100000, 999999)}"]
    if choice == 24:
        return ["{", f'  "item_id": "{rand(rng, ALNUM, 37)}",', f'  "institution_id": "ins_{rng.randint(1, 130000)}",',
                f'  "request_id": "{rand(rng, ALNUM, 15)}"', "}"]
    if choice == 25:
        return [f"https://sepolia.etherscan.io/tx/0x{rand(rng, HEX, 64)}", f"Status: Success   Block: {rng.randint(7000000, 7999999)}"]
    if choice == 26:
        return ["client.once('ready', () => console.log(`Logged in as ${client.user.tag}`));",
                f"const CHANNEL_ID = '{rng.randint(10**18, 2 * 10**18)}';", f"const GUILD_ID = '{rng.randint(10**18, 2 * 10**18)}';"]
    if choice == 27:
        return ["$ bin/rails db:migrate", f"== {rng.randint(2025, 2026)}1120091402 AddRefundsToOrders: migrating ==========",
                "-- add_column(:orders, :refunded_at, :datetime)", "   -> 0.0042s"]
    if choice == 28:
        return ["$ op item list --vault Shop", "ID                            TITLE          VAULT   EDITED",
                f"{rand(rng, string.ascii_lowercase + string.digits, 26)}    Staging DB     Shop    2 days ago",
                f"{rand(rng, string.ascii_lowercase + string.digits, 26)}    Stripe live    Shop    3 weeks ago"]
    return ["$ aws sts get-caller-identity", "{", f'    "UserId": "AROA{rand(rng, string.ascii_uppercase + "234567", 17)}:ana",',
            f'    "Account": "{rng.randint(10**11, 10**12 - 1)}",', '    "Arn": "arn:aws:sts::123456789012:assumed-role/Dev/ana"', "}"]


def thirty_first_secret_case(rng):
    """The thirty-first pool (`--pool thirty-first`): written after the thirtieth pool's round, before
    any rule was run on it, from places none of the thirty earlier pools has: Rails' `database.yml`,
    Django's `DATABASES`, a `knexfile.js`, TypeORM's `ormconfig.json`, JPA's `persistence.xml`,
    Tomcat's `context.xml` and `server.xml` (`keystorePass`), JBoss' `standalone.xml`, ASP.NET's
    `web.config`, MediaWiki's `$wgDBpassword`, nginx's `proxy_set_header Authorization "Basic …"`,
    `COSIGN_PASSWORD`, `CARGO_REGISTRY_TOKEN`, a decoded `.dockerconfigjson`, Terraform Cloud's
    `credentials.tfrc.json`, `ARGOCD_AUTH_TOKEN`, Elasticsearch's first-start password, `influx
    config create --token`, `SNOWSQL_PWD`, Auth0's client secret, Confluence's Python client,
    Trello's `token=`, Mollie's `setApiKey`, Adyen's `X-API-Key`, a Hardhat `mnemonic:`, Codecov's
    and Snyk's tokens (UUIDs), BrowserStack's `accessKey`, WakaTime's `api_key`, a Lichess token,
    `wget --password=`, Dashlane's CLI printing a password, RouterOS' `wpa2-pre-shared-key=` and
    pfSense's IPsec `<pre-shared-key>`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "").replace("<", "").replace(">", "")
    if choice == 0:
        return "password", ["# config/database.yml", "production:", "  <<: *default", "  database: shop_production",
                            f"  username: {user}", f"  password: {pw}", "  host: db.internal"], [pw]
    if choice == 1:
        return "password", ["DATABASES = {", "    'default': {", "        'ENGINE': 'django.db.backends.postgresql',",
                            "        'NAME': 'shop',", f"        'USER': '{user}',", f"        'PASSWORD': '{pw}',",
                            "        'HOST': 'db.internal',", "    }", "}"], [pw]
    if choice == 2:
        return "password", ["// knexfile.js", "module.exports = {", "  production: {", "    client: 'pg',",
                            f"    connection: {{ host: 'db.internal', user: '{user}', password: '{pw}', database: 'shop' }},",
                            "    pool: { min: 2, max: 10 }", "  }", "};"], [pw]
    if choice == 3:
        return "password", ["{", '  "type": "postgres",', '  "host": "db.internal",', '  "port": 5432,', f'  "username": "{user}",',
                            f'  "password": "{pw}",', '  "database": "shop",', '  "synchronize": false', "}"], [pw]
    if choice == 4:
        return "password", ['<persistence-unit name="shop" transaction-type="RESOURCE_LOCAL">', "  <properties>",
                            '    <property name="javax.persistence.jdbc.url" value="jdbc:postgresql://db.internal:5432/shop"/>',
                            f'    <property name="javax.persistence.jdbc.user" value="{user}"/>',
                            f'    <property name="javax.persistence.jdbc.password" value="{pw}"/>', "  </properties>",
                            "</persistence-unit>"], [pw]
    if choice == 5:
        return "password", ['<Context>', '  <Resource name="jdbc/shop" auth="Container" type="javax.sql.DataSource"',
                            f'            username="{user}" password="{pw}"',
                            '            driverClassName="org.postgresql.Driver" url="jdbc:postgresql://db.internal:5432/shop"',
                            '            maxTotal="20" maxIdle="10"/>', "</Context>"], [pw]
    if choice == 6:
        return "password", ['<Connector port="8443" protocol="org.apache.coyote.http11.Http11NioProtocol"',
                            '           SSLEnabled="true" scheme="https" secure="true"',
                            f'           keystoreFile="conf/shop.jks" keystorePass="{pw}"', '           clientAuth="false" sslProtocol="TLS"/>'], [pw]
    if choice == 7:
        return "password", ['<datasource jndi-name="java:jboss/datasources/ShopDS" pool-name="ShopDS">',
                            "    <connection-url>jdbc:postgresql://db.internal:5432/shop</connection-url>", "    <driver>postgresql</driver>",
                            "    <security>", f"        <user-name>{user}</user-name>", f"        <password>{pw}</password>", "    </security>",
                            "</datasource>"], [pw]
    if choice == 8:
        return "password", ["<connectionStrings>",
                            f'  <add name="Shop" connectionString="Server=db.internal;Database=shop;User Id={user};Password={pw};" providerName="System.Data.SqlClient" />',
                            "</connectionStrings>"], [pw]
    if choice == 9:
        return "password", ["## Database settings", '$wgDBtype = "mysql";', '$wgDBserver = "db.internal";', '$wgDBname = "wiki";',
                            f'$wgDBuser = "{user}";', f'$wgDBpassword = "{pw}";'], [pw]
    if choice == 10:
        v = base64.b64encode(f"{user}:{pw}".encode()).decode()
        return "password", ["location /api/ {", "    proxy_pass http://backend:8080;",
                            f'    proxy_set_header Authorization "Basic {v}";', "    proxy_set_header Host $host;", "}"], [v]
    if choice == 11:
        return "password", [f"$ COSIGN_PASSWORD='{pw}' cosign sign --yes --key cosign.key ghcr.io/acme/shop:1.4.2",
                            "Pushing signature to: ghcr.io/acme/shop"], [pw]
    if choice == 12:
        v = "cio" + rand(rng, ALNUM, 32)
        return "api_key", ["      - name: Publish", "        run: cargo publish --locked", "        env:",
                           f"          CARGO_REGISTRY_TOKEN: {v}"], [v]
    if choice == 13:
        v = base64.b64encode(f"{user}:{pw}".encode()).decode()
        return "password", ["$ kubectl get secret regcred -o jsonpath='{.data.\\.dockerconfigjson}' | base64 -d",
                            f'{{"auths":{{"registry.acme.io":{{"username":"{user}","auth":"{v}"}}}}}}'], [v]
    if choice == 14:
        v = rand(rng, ALNUM, 14) + ".atlasv1." + rand(rng, ALNUM, 67)
        return "api_key", ["$ cat ~/.terraform.d/credentials.tfrc.json", "{", '  "credentials": {', '    "app.terraform.io": {',
                           f'      "token": "{v}"', "    }", "  }", "}"], [v]
    if choice == 15:
        v = jwt(rng)
        return "api_key", [f"$ export ARGOCD_AUTH_TOKEN={v}", "$ argocd app list --server argocd.acme.io --grpc-web"], [v]
    if choice == 16:
        v = rand(rng, ALNUM + "*_+-=", 20)
        return "password", ["✅ Elasticsearch security features have been automatically configured!",
                            "✅ Authentication is enabled and cluster connections are encrypted.", "",
                            "ℹ️  Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):",
                            f"  {v}", "", "ℹ️  HTTP CA certificate SHA-256 fingerprint:", f"  {rand(rng, HEX, 64)}"], [v]
    if choice == 17:
        v = rand(rng, ALNUM + "-_", 86) + "=="
        return "api_key", [f"$ influx config create --config-name prod --host-url https://influx.acme.io:8086 --org acme --token {v} --active",
                           "Active  Name  URL                              Org", "*       prod  https://influx.acme.io:8086      acme"], [v]
    if choice == 18:
        return "password", [f"$ SNOWSQL_PWD='{pw}' snowsql -a acme-xy12345 -u {user.upper()} -d SHOP -w COMPUTE_WH",
                            "* SnowSQL * v1.2.32", f"{user.upper()}#COMPUTE_WH@SHOP.PUBLIC>"], [pw]
    if choice == 19:
        v = rand(rng, ALNUM + "-_", 64)
        return "api_key", ["# .env.local", f"AUTH0_SECRET='{rand(rng, HEX, 64)}'", "AUTH0_BASE_URL='http://localhost:3000'",
                           "AUTH0_ISSUER_BASE_URL='https://acme.eu.auth0.com'", f"AUTH0_CLIENT_ID='{rand(rng, ALNUM, 32)}'",
                           f"AUTH0_CLIENT_SECRET='{v}'"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["from atlassian import Confluence", "", "confluence = Confluence(", "    url='https://acme.atlassian.net/wiki',",
                           f"    username='{user}@acme.io',", f"    password='{v}',", "    cloud=True)"], [v]
    if choice == 21:
        v = rand(rng, HEX, 64)
        return "api_key", [f'$ curl "https://api.trello.com/1/members/me/boards?key={rand(rng, HEX, 32)}&token={v}&fields=name"',
                           '[{"name":"Shop roadmap","id":"' + rand(rng, HEX, 24) + '"}]'], [v]
    if choice == 22:
        v = "live_" + rand(rng, ALNUM, 30)
        return "api_key", ["$mollie = new \\Mollie\\Api\\MollieApiClient();", f'$mollie->setApiKey("{v}");',
                           '$payment = $mollie->payments->create([', '    "amount" => ["currency" => "EUR", "value" => "10.00"],'], [v]
    if choice == 23:
        v = "AQE" + rand(rng, ALNUM, 60) + "+" + rand(rng, ALNUM, 40) + "=-i1" + rand(rng, ALNUM, 20)
        return "api_key", ["$ curl https://checkout-test.adyen.com/v71/paymentMethods \\", f'  -H "X-API-Key: {v}" \\',
                           "  -H 'Content-Type: application/json' -d '{\"merchantAccount\": \"AcmeShopECOM\"}'"], [v]
    if choice == 24:
        words = rng.sample(bip39_words(), 12)
        return "api_key", ["module.exports = {", '  solidity: "0.8.24",', "  networks: {", "    sepolia: {",
                           '      url: "https://rpc.sepolia.org",', f'      accounts: {{ mnemonic: "{" ".join(words)}" }},', "    },", "  },", "};"], [" ".join(words)]
    if choice == 25:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ curl -Os https://cli.codecov.io/latest/linux/codecov && chmod +x codecov",
                           f"$ ./codecov upload-process -t {v} -f coverage.xml", "info - Process Upload complete"], [v]
    if choice == 26:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ snyk config set api={v}", "api updated", "$ snyk test --severity-threshold=high",
                           "Testing /home/ana/shop..."], [v]
    if choice == 27:
        v = rand(rng, ALNUM, 20)
        return "api_key", ["# browserstack.yml", f"userName: {user}_{rand(rng, ALNUM, 6)}", f"accessKey: {v}",
                           "platforms:", "  - os: Windows", "    osVersion: 11", "    browserName: Chrome"], [v]
    if choice == 28:
        v = "waka_" + str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ cat ~/.wakatime.cfg", "[settings]", "debug = false", f"api_key = {v}", "hide_file_names = true"], [v]
    if choice == 29:
        v = "lip_" + rand(rng, ALNUM, 20)
        return "api_key", [f'$ curl -H "Authorization: Bearer {v}" https://lichess.org/api/account', '{"id":"anaberg","username":"AnaBerg"}'], [v]
    if choice == 30:
        return "password", [f"$ wget --user={user} --password={pw} https://{host}/exports/orders-2026-11.csv",
                            "Resolving exports... connected.", "HTTP request sent, awaiting response... 200 OK"], [pw]
    if choice == 31:
        return "password", ["$ dcli password shop.acme.io", pw, "$ dcli note list", "Staging notes"], [pw]
    if choice == 32:
        return "password", ["[admin@MikroTik] > /interface wireless security-profiles",
                            f"[admin@MikroTik] /interface wireless security-profiles> set [ find default=yes ] authentication-types=wpa2-psk mode=dynamic-keys wpa2-pre-shared-key={pw}",
                            "[admin@MikroTik] /interface wireless security-profiles> print"], [pw]
    return "password", ["<phase1>", "  <ikeid>1</ikeid>", "  <iketype>ikev2</iketype>", "  <remote-gateway>203.0.113.7</remote-gateway>",
                        "  <authentication_method>pre_shared_key</authentication_method>", f"  <pre-shared-key>{pw}</pre-shared-key>",
                        "</phase1>"], [pw]


def thirty_first_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["# config/database.yml", "production:", "  <<: *default", "  database: shop_production",
                "  username: shop", '  password: <%= ENV["SHOP_DATABASE_PASSWORD"] %>']
    if choice == 1:
        return ["DATABASES = {", "    'default': {", "        'ENGINE': 'django.db.backends.postgresql',",
                "        'PASSWORD': os.environ['DB_PASSWORD'],", "        'HOST': 'db.internal',", "    }", "}"]
    if choice == 2:
        return ["// knexfile.js", "    connection: { host: 'db.internal', user: 'shop', password: process.env.DB_PASSWORD },",
                "    migrations: { tableName: 'knex_migrations' }"]
    if choice == 3:
        return ["{", '  "type": "postgres",', '  "entities": ["dist/entity/*.js"],', '  "migrations": ["dist/migration/*.js"],',
                '  "logging": ["error"]', "}"]
    if choice == 4:
        return ['<persistence-unit name="shop">', '    <property name="javax.persistence.jdbc.url" value="jdbc:postgresql://db.internal:5432/shop"/>',
                '    <property name="hibernate.hbm2ddl.auto" value="validate"/>', "</persistence-unit>"]
    if choice == 5:
        return ['<Context>', '  <Resource name="jdbc/shop" auth="Container" type="javax.sql.DataSource"',
                '            maxTotal="20" maxIdle="10" maxWaitMillis="10000"/>', "</Context>"]
    if choice == 6:
        return ['<Connector port="8443" protocol="org.apache.coyote.http11.Http11NioProtocol"',
                '           keystoreFile="conf/shop.jks" keystoreType="PKCS12"', '           clientAuth="false" sslProtocol="TLS"/>']
    if choice == 7:
        return ["    <security>", "        <security-domain>ShopRealm</security-domain>", "    </security>",
                f"    <!-- build {rand(rng, HEX, 12)} -->"]
    if choice == 8:
        return ['  <add name="Shop" connectionString="Server=db.internal;Database=shop;Integrated Security=true;" />',
                '  <add key="webpages:Version" value="3.0.0.0" />']
    if choice == 9:
        return ['$wgDBtype = "mysql";', '$wgDBserver = "db.internal";', '$wgSecretKey = getenv( "WIKI_SECRET_KEY" );',
                f'$wgCacheEpoch = "{rng.randint(20250101000000, 20261231000000)}";']
    if choice == 10:
        return ["location /api/ {", "    proxy_pass http://backend:8080;", "    proxy_set_header X-Real-IP $remote_addr;",
                "    proxy_set_header Authorization $http_authorization;", "}"]
    if choice == 11:
        return ["$ cosign verify --key cosign.pub ghcr.io/acme/shop:1.4.2 | jq -r '.[0].critical.image'",
                '{', f'  "docker-manifest-digest": "sha256:{rand(rng, HEX, 64)}"', '}']
    if choice == 12:
        return ["[[package]]", 'name = "serde"', 'version = "1.0.215"', 'source = "registry+https://github.com/rust-lang/crates.io-index"',
                f'checksum = "{rand(rng, HEX, 64)}"']
    if choice == 13:
        return ["$ kubectl get secrets", "NAME        TYPE                             DATA   AGE",
                "regcred     kubernetes.io/dockerconfigjson   1      42d", "shop-tls    kubernetes.io/tls                2      42d"]
    if choice == 14:
        return ["$ terraform plan", f"  # aws_instance.web will be updated in-place", f'      id            = "i-0{rand(rng, HEX, 16)}"',
                f'      ami           = "ami-0{rand(rng, HEX, 16)}"']
    if choice == 15:
        return ["$ argocd app list", "NAME          CLUSTER                         NAMESPACE  STATUS  HEALTH",
                "argocd/shop   https://kubernetes.default.svc  shop       Synced  Healthy", f"Revision: {rand(rng, HEX, 40)}"]
    if choice == 16:
        return ["$ curl -s -u elastic https://localhost:9200/ | jq .cluster_uuid", "Enter host password for user 'elastic':",
                f'"{rand(rng, ALNUM + "-_", 22)}"']
    if choice == 17:
        return ["$ influx bucket list", "ID                Name        Retention  Shard group duration  Organization ID",
                f"{rand(rng, HEX, 16)}  telegraf    720h0m0s   24h0m0s               {rand(rng, HEX, 16)}"]
    if choice == 18:
        return ["ANA#COMPUTE_WH@SHOP.PUBLIC> select count(*) from orders;", "+----------+", "| COUNT(*) |", "|----------|",
                f"| {rng.randint(10000, 99999):8d} |", "+----------+", f"1 Row(s) produced. Query ID: {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 19:
        return ["# .env.local", "AUTH0_BASE_URL='http://localhost:3000'", "AUTH0_ISSUER_BASE_URL='https://acme.eu.auth0.com'",
                "AUTH0_AUDIENCE='https://api.acme.io'", "AUTH0_SCOPE='openid profile email'"]
    if choice == 20:
        return [f"https://acme.atlassian.net/wiki/spaces/SHOP/pages/{rng.randint(10**8, 10**9)}/Refund+runbook",
                "Last updated by Ana Berg · 20 Nov 2026"]
    if choice == 21:
        return [f"https://trello.com/c/{rand(rng, ALNUM, 8)}/42-fix-refund-rounding", "Card moved to Done by Ana Berg"]
    if choice == 22:
        return ['$payment = $mollie->payments->get("tr_' + rand(rng, ALNUM, 10) + '");', 'echo $payment->status;  // "paid"']
    if choice == 23:
        return ['{', f'  "pspReference": "{rng.randint(10**15, 10**16 - 1)}",', '  "resultCode": "Authorised",',
                f'  "merchantReference": "ORDER-{rng.randint(1000, 9999)}"', '}']
    if choice == 24:
        return ["module.exports = {", '  solidity: "0.8.24",', "  networks: { hardhat: { chainId: 31337 } },",
                '  paths: { sources: "./contracts", tests: "./test" },', "};"]
    if choice == 25:
        return [f"https://app.codecov.io/gh/acme/shop/commit/{rand(rng, HEX, 40)}", "Coverage 84.21% (+0.12%)"]
    if choice == 26:
        return ["$ snyk test", "✗ High severity vulnerability found in lodash", f"  Info: https://security.snyk.io/vuln/SNYK-JS-LODASH-{rng.randint(100000, 999999)}",
                "  Introduced through: lodash@4.17.15"]
    if choice == 27:
        return [f"https://automate.browserstack.com/dashboard/v2/builds/{rand(rng, HEX, 40)}/sessions/{rand(rng, HEX, 40)}",
                "Status: passed   Duration: 42s"]
    if choice == 28:
        return ["$ cat ~/.wakatime.cfg", "[settings]", "debug = false", "hide_file_names = true", "exclude = ^/tmp/"]
    if choice == 29:
        return [f"https://lichess.org/{rand(rng, ALNUM, 8)}", "Ana Berg (1842) vs. Tomas (1811) · Rapid 10+0"]
    return ["$ dcli password --list", "shop.acme.io", "staging.acme.io", "$ dcli sync", "Successfully synced"]


def thirty_second_secret_case(rng):
    """The thirty-second pool (`--pool thirty-second`): written after the thirty-first pool's round,
    before any rule was run on it, from places none of the thirty-one earlier pools has:
    `sonar-scanner -Dsonar.token=`, `NETLIFY_AUTH_TOKEN`, `vercel --token=`, an Algolia admin key in
    code, a Bitbucket app password in a clone address, Azure DevOps' `.npmrc` `_password=`, `dotnet
    nuget add source --password`, Airflow's Fernet key, `KEYCLOAK_ADMIN_PASSWORD`, `TF_VAR_…`,
    PayPal's client secret, Okta's `api_token`, PagerDuty's `Token token=`, Honeycomb's OTLP header,
    a Sanity write token, Logstash's `password =>`, Grafana's `secureJsonData`, `circleci setup
    --token`, a Buildkite agent's `token=`, `jf c add --access-token=`, `harbor_admin_password`,
    Rollbar's `accessToken`, Mixpanel's `api_secret`, `contentful login --management-token`, a
    CouchDB address's password, `ARANGO_ROOT_PASSWORD`, `splunk … -auth`, OpenSearch's initial admin
    password, Jupyter's `?token=`, Graylog's `password_secret`, DeepL's `DeepL-Auth-Key`,
    `MISTRAL_API_KEY`, `scw init secret-key=` and Gitea's `tea login add --token`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = plain_password(rng).replace(" ", "").replace("\\", "").replace("$", "").replace("&", "").replace("%", "").replace("'", "").replace("<", "").replace(">", "").replace('"', "").replace("@", "").replace(":", "").replace("/", "")
    if choice == 0:
        v = "squ_" + rand(rng, HEX, 40)
        return "api_key", [f"$ sonar-scanner -Dsonar.projectKey=acme_shop -Dsonar.sources=src -Dsonar.host.url=https://sonar.acme.io -Dsonar.token={v}",
                           "INFO: Scanner configuration file: /opt/sonar-scanner/conf/sonar-scanner.properties",
                           "INFO: SonarScanner 5.0.1.3006"], [v]
    if choice == 1:
        v = "nfp_" + rand(rng, ALNUM, 40)
        return "api_key", ["      - name: Deploy to Netlify", "        run: netlify deploy --prod --dir=dist", "        env:",
                           f"          NETLIFY_AUTH_TOKEN: {v}", f"          NETLIFY_SITE_ID: {uuid.UUID(bytes=rng.randbytes(16))}"], [v]
    if choice == 2:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f"$ vercel deploy --prod --token={v} --yes", "Vercel CLI 39.1.1",
                           "🔍  Inspect: https://vercel.com/acme/shop/" + rand(rng, ALNUM, 28) + " [2s]"], [v]
    if choice == 3:
        v = rand(rng, HEX, 32)
        return "api_key", ["import algoliasearch from 'algoliasearch';", "", f"const adminApiKey = '{v}';",
                           "const client = algoliasearch('LATENCY42', adminApiKey);", "const index = client.initIndex('products');"], [v]
    if choice == 4:
        v = "ATBB" + rand(rng, ALNUM, 32)
        return "api_key", [f"$ git clone https://{user}:{v}@bitbucket.org/acme/shop.git", "Cloning into 'shop'...",
                           "remote: Enumerating objects: 1423, done."], [v]
    if choice == 5:
        v = base64.b64encode(rand(rng, string.ascii_lowercase + string.digits, 52).encode()).decode()
        return "api_key", ["; .npmrc", "registry=https://pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/", "always-auth=true",
                           "//pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/:username=acme",
                           f"//pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/:_password={v}",
                           f"//pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/:email={user}@acme.io"], [v]
    if choice == 6:
        v = rand(rng, string.ascii_lowercase + string.digits, 52)
        return "api_key", [f"$ dotnet nuget add source https://pkgs.dev.azure.com/acme/_packaging/shop/nuget/v3/index.json --name acme --username {user} --password {v} --store-password-in-clear-text",
                           "Package source with Name: acme added successfully."], [v]
    if choice == 7:
        v = base64.urlsafe_b64encode(rng.randbytes(32)).decode()
        return "api_key", ["# airflow.env", "AIRFLOW__CORE__EXECUTOR=CeleryExecutor", f"AIRFLOW__CORE__FERNET_KEY={v}",
                           "AIRFLOW__CORE__LOAD_EXAMPLES=False"], [v]
    if choice == 8:
        return "password", ["$ docker run -d -p 8080:8080 \\", "    -e KEYCLOAK_ADMIN=admin \\", f"    -e KEYCLOAK_ADMIN_PASSWORD={pw} \\",
                            "    quay.io/keycloak/keycloak:26.0 start-dev"], [pw]
    if choice == 9:
        return "password", [f"$ export TF_VAR_db_password='{pw}'", "$ terraform apply -auto-approve",
                            "aws_db_instance.shop: Modifying... [id=shop-prod]"], [pw]
    if choice == 10:
        v = "E" + rand(rng, ALNUM + "-_", 79)
        return "api_key", ["# .env", "PAYPAL_MODE=live", f"PAYPAL_CLIENT_ID=A{rand(rng, ALNUM + '-_', 79)}", f"PAYPAL_CLIENT_SECRET={v}"], [v]
    if choice == 11:
        v = "00" + rand(rng, ALNUM + "-_", 40)
        return "api_key", ['provider "okta" {', '  org_name  = "acme"', '  base_url  = "okta.com"', f'  api_token = "{v}"', "}"], [v]
    if choice == 12:
        v = "u+" + rand(rng, ALNUM + "-_", 18)
        return "api_key", ["$ curl -s https://api.pagerduty.com/incidents?statuses[]=triggered \\", '    -H "Accept: application/vnd.pagerduty+json;version=2" \\',
                           f'    -H "Authorization: Token token={v}"'], [v]
    if choice == 13:
        v = rand(rng, ALNUM, 22)
        return "api_key", ["export OTEL_SERVICE_NAME=shop-api", "export OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io",
                           f'export OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team={v}"'], [v]
    if choice == 14:
        v = "sk" + rand(rng, ALNUM, 80)
        return "api_key", ["# .env.local", "SANITY_STUDIO_PROJECT_ID=" + rand(rng, string.ascii_lowercase + string.digits, 8),
                           "SANITY_STUDIO_DATASET=production", f'SANITY_API_WRITE_TOKEN="{v}"'], [v]
    if choice == 15:
        return "password", ["output {", "  elasticsearch {", '    hosts => ["https://es01.internal:9200"]', '    user => "logstash_internal"',
                            f'    password => "{pw}"', '    index => "shop-%{+YYYY.MM.dd}"', "  }", "}"], [pw]
    if choice == 16:
        return "password", ["apiVersion: 1", "datasources:", "  - name: Shop DB", "    type: postgres", "    url: db.internal:5432",
                            f"    user: {user}", "    secureJsonData:", f"      password: {pw}", "    jsonData:", "      database: shop"], [pw]
    if choice == 17:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ circleci setup --no-prompt --host https://circleci.com --token {v}", "Setup complete.",
                           "Your configuration has been saved to /home/ana/.circleci/cli.yml."], [v]
    if choice == 18:
        v = rand(rng, HEX, 50)
        return "api_key", ["$ sudo cat /etc/buildkite-agent/buildkite-agent.cfg", f'token="{v}"', 'name="%hostname-%spawn"',
                           'tags="queue=default,os=linux"', 'build-path="/var/lib/buildkite-agent/builds"'], [v]
    if choice == 19:
        v = "cmVmdGtuOjAxOjE3" + rand(rng, ALNUM, 48)
        return "api_key", [f"$ jf c add acme --url=https://acme.jfrog.io --access-token={v} --interactive=false",
                           "$ jf rt ping", "OK"], [v]
    if choice == 20:
        return "password", ["# harbor.yml", "hostname: harbor.acme.io", "http:", "  port: 80", f"harbor_admin_password: {pw}",
                            "database:", "  max_idle_conns: 100"], [pw]
    if choice == 21:
        v = rand(rng, HEX, 32)
        return "api_key", ["Rollbar.init({", f'  accessToken: "{v}",', "  captureUncaught: true,", "  captureUnhandledRejections: true,",
                           '  payload: { environment: "production" }', "});"], [v]
    if choice == 22:
        v = rand(rng, HEX, 32)
        return "api_key", ["# settings.py", f'MIXPANEL_TOKEN = "{rand(rng, HEX, 32)}"', f'MIXPANEL_API_SECRET = "{v}"',
                           'MIXPANEL_EU = True'], [v]
    if choice == 23:
        v = "CFPAT-" + rand(rng, ALNUM + "-_", 43)
        return "api_key", [f"$ contentful login --management-token {v}", "Great! Your CMA token is now stored on your system.",
                           "$ contentful space use --space-id " + rand(rng, string.ascii_lowercase + string.digits, 12)], [v]
    if choice == 24:
        return "password", [f"$ curl -X PUT http://admin:{pw}@127.0.0.1:5984/shop", '{"ok":true}',
                            "$ curl http://127.0.0.1:5984/_all_dbs", '["_replicator","_users","shop"]'], [pw]
    if choice == 25:
        return "password", [f"$ docker run -d -p 8529:8529 -e ARANGO_ROOT_PASSWORD={pw} --name arango arangodb:3.12",
                            rand(rng, HEX, 64)], [pw]
    if choice == 26:
        return "password", [f"$ /opt/splunkforwarder/bin/splunk add forward-server idx.acme.io:9997 -auth admin:{pw}",
                            "Added forwarding to: idx.acme.io:9997."], [pw]
    if choice == 27:
        return "password", ["services:", "  opensearch-node1:", "    image: opensearchproject/opensearch:2.18.0", "    environment:",
                            "      - cluster.name=shop-cluster", "      - discovery.type=single-node",
                            f"      - OPENSEARCH_INITIAL_ADMIN_PASSWORD={pw}"], [pw]
    if choice == 28:
        v = rand(rng, HEX, 48)
        return "api_key", ["[I 2026-11-24 09:12:44.123 ServerApp] Jupyter Server 2.14.2 is running at:",
                           f"[I 2026-11-24 09:12:44.123 ServerApp] http://localhost:8888/lab?token={v}",
                           f"[I 2026-11-24 09:12:44.123 ServerApp]     http://127.0.0.1:8888/lab?token={v}",
                           "[I 2026-11-24 09:12:44.124 ServerApp] Use Control-C to stop this server and shut down all kernels."], [v]
    if choice == 29:
        v = rand(rng, ALNUM, 96)
        return "api_key", ["# /etc/graylog/server/server.conf", "is_leader = true", "node_id_file = /etc/graylog/server/node-id",
                           f"password_secret = {v}", f"root_password_sha2 = {rand(rng, HEX, 64)}", "http_bind_address = 0.0.0.0:9000"], [v]
    if choice == 30:
        v = str(uuid.UUID(bytes=rng.randbytes(16))) + ":fx"
        return "api_key", ["$ curl -X POST 'https://api-free.deepl.com/v2/translate' \\", f"    --header 'Authorization: DeepL-Auth-Key {v}' \\",
                           "    --data-urlencode 'text=Hello, world!' --data-urlencode 'target_lang=DE'"], [v]
    if choice == 31:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ export MISTRAL_API_KEY={v}", "$ python chat.py --model mistral-large-latest",
                           "> Summarise the refund policy in one sentence."], [v]
    if choice == 32:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ scw init access-key=SCW{rand(rng, string.ascii_uppercase + string.digits, 17)} secret-key={v} organization-id={uuid.UUID(bytes=rng.randbytes(16))}",
                           "✅ Initialization completed with success."], [v]
    v = rand(rng, HEX, 40)
    return "api_key", [f"$ tea login add --name acme --url https://git.acme.io --token {v}", "Login as ana on https://git.acme.io successful"], [v]


def thirty_second_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["INFO: ANALYSIS SUCCESSFUL, you can find the results at: https://sonar.acme.io/dashboard?id=acme_shop",
                f"INFO: More about the report processing at https://sonar.acme.io/api/ce/task?id=AY{rand(rng, ALNUM, 18)}",
                "INFO: Analysis total time: 42.118 s"]
    if choice == 1:
        return ["Deploy is live!", f"Unique deploy URL: https://{rand(rng, HEX, 24)}--shop.netlify.app",
                "Website URL:       https://shop.netlify.app"]
    if choice == 2:
        return ["$ vercel ls shop", "Age  Deployment                                         Status   Environment",
                f"2h   https://shop-{rand(rng, string.ascii_lowercase + string.digits, 9)}-acme.vercel.app  ● Ready  Production"]
    if choice == 3:
        return ["const results = await index.search('running shoes', { hitsPerPage: 20 });",
                f"// objectID: {rand(rng, HEX, 24)}", "console.log(results.nbHits);"]
    if choice == 4:
        return ["$ git clone git@bitbucket.org:acme/shop.git", "Cloning into 'shop'...", f"HEAD is now at {rand(rng, HEX, 7)} Fix refund rounding"]
    if choice == 5:
        return ["; .npmrc", "registry=https://pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/", "always-auth=true",
                "//pkgs.dev.azure.com/acme/_packaging/shop/npm/registry/:_password=${AZURE_ARTIFACTS_PAT}"]
    if choice == 6:
        return ["$ dotnet nuget list source", "Registered Sources:", "  1.  nuget.org [Enabled]", "      https://api.nuget.org/v3/index.json",
                "  2.  acme [Enabled]", "      https://pkgs.dev.azure.com/acme/_packaging/shop/nuget/v3/index.json"]
    if choice == 7:
        return ["$ airflow db migrate", f"INFO  [alembic.runtime.migration] Running upgrade {rand(rng, HEX, 12)} -> {rand(rng, HEX, 12)}, Add dag_priority",
                "Database migrating done!"]
    if choice == 8:
        return ["2026-11-24 09:12:44,123 INFO  [io.quarkus] (main) Keycloak 26.0.5 on JVM (powered by Quarkus 3.15.1) started in 7.123s.",
                "Listening on: http://0.0.0.0:8080"]
    if choice == 9:
        return ["Outputs:", "", f'db_endpoint = "shop.cluster-{rand(rng, string.ascii_lowercase + string.digits, 12)}.eu-west-1.rds.amazonaws.com"',
                "db_password = <sensitive>"]
    if choice == 10:
        return ["{", f'  "id": "WH-{rand(rng, string.ascii_uppercase + string.digits, 17)}-{rand(rng, string.ascii_uppercase + string.digits, 17)}",',
                '  "event_type": "PAYMENT.CAPTURE.COMPLETED",', f'  "resource": {{ "id": "{rand(rng, string.ascii_uppercase + string.digits, 17)}" }}', "}"]
    if choice == 11:
        return ['resource "okta_user" "ana" {', '  first_name = "Ana"', '  last_name  = "Berg"', '  login      = "ana@acme.io"',
                f'  # id: 00u{rand(rng, ALNUM, 17)}', "}"]
    if choice == 12:
        return ['{"incident": {', f'  "incident_number": {rng.randint(1000, 9999)},', '  "status": "triggered",',
                f'  "html_url": "https://acme.pagerduty.com/incidents/Q{rand(rng, string.ascii_uppercase + string.digits, 13)}"', "}}"]
    if choice == 13:
        return [f"https://ui.honeycomb.io/acme/environments/prod/datasets/shop/result/{rand(rng, ALNUM, 11)}",
                f"trace.trace_id = {rand(rng, HEX, 32)}", "duration_ms p99 = 412"]
    if choice == 14:
        return ["$ sanity deploy", "✔ Building Sanity", "Success! Studio deployed to https://acme.sanity.studio",
                f"projectId: '{rand(rng, string.ascii_lowercase + string.digits, 8)}'"]
    if choice == 15:
        return ["output {", "  elasticsearch {", '    hosts => ["https://es01.internal:9200"]', '    user => "logstash_internal"',
                '    password => "${LOGSTASH_INTERNAL_PASSWORD}"', "  }", "}"]
    if choice == 16:
        return ["apiVersion: 1", "datasources:", "  - name: Prometheus", "    type: prometheus", "    url: http://prometheus:9090",
                f"    uid: {rand(rng, ALNUM, 9)}", "    isDefault: true"]
    if choice == 17:
        return ["$ circleci config validate", "Config file at .circleci/config.yml is valid.",
                f"Pipeline {uuid.UUID(bytes=rng.randbytes(16))} created"]
    if choice == 18:
        return ["2026-11-24 09:12:44 NOTICE Registering agent with Buildkite...",
                '2026-11-24 09:12:45 INFO   Successfully registered agent "ci-1" with tags [queue=default]',
                f"2026-11-24 09:12:45 INFO   Agent ID: {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 19:
        return ["$ jf rt upload dist/shop.tgz npm-local/shop/", "{", '  "status": "success",', '  "totals": { "success": 1, "failure": 0 },',
                f'  "sha256": "{rand(rng, HEX, 64)}"', "}"]
    if choice == 20:
        return ["# harbor.yml", "hostname: harbor.acme.io", "http:", "  port: 80", "data_volume: /data", "database:", "  max_idle_conns: 100"]
    if choice == 21:
        return [f"https://app.rollbar.com/a/acme/fix/item/shop/{rng.randint(100, 9999)}", f"Occurrence {uuid.UUID(bytes=rng.randbytes(16))}",
                "TypeError: Cannot read properties of undefined (reading 'total')"]
    if choice == 22:
        return ['mixpanel.track("Checkout", {', f'  order_id: "{rand(rng, HEX, 12)}",', f"  amount: {rng.randint(10, 500)}.50", "});"]
    if choice == 23:
        return ["$ contentful space list", "┌──────────────┬──────────────┐", "│ Space name   │ Space id     │",
                f"│ Shop         │ {rand(rng, string.ascii_lowercase + string.digits, 12)} │", "└──────────────┴──────────────┘"]
    if choice == 24:
        return ["$ curl http://127.0.0.1:5984/",
                f'{{"couchdb":"Welcome","version":"3.4.2","git_sha":"{rand(rng, HEX, 9)}","uuid":"{rand(rng, HEX, 32)}"}}']
    if choice == 25:
        return ["127.0.0.1:8529@_system> db._collections().map(c => c.name())", '[ "orders", "customers", "refunds" ]']
    if choice == 26:
        return ["$ /opt/splunkforwarder/bin/splunk list forward-server", "Active forwards:", "\tidx.acme.io:9997", "Configured but inactive forwards:", "\tNone"]
    if choice == 27:
        return ["$ curl -sk https://localhost:9200/_cluster/health | jq", "{", '  "cluster_name": "shop-cluster",', '  "status": "green",',
                f'  "number_of_nodes": {rng.randint(1, 5)}', "}"]
    if choice == 28:
        return ["[I 2026-11-24 09:14:02.551 ServerApp] Saving file at /notebooks/orders.ipynb",
                f"[I 2026-11-24 09:14:05.002 ServerApp] Kernel started: {uuid.UUID(bytes=rng.randbytes(16))}"]
    return ["# /etc/graylog/server/server.conf", "root_timezone = Europe/Oslo", "http_bind_address = 0.0.0.0:9000",
            "elasticsearch_hosts = http://opensearch:9200"]



def thirty_third_secret_case(rng):
    """The thirty-third pool (`--pool thirty-third`): written after the thirty-second pool's rounds,
    before any rule was run on it, from places none of the thirty-two earlier pools has: Elastic
    APM's `ELASTIC_APM_SECRET_TOKEN`, Render's `rnd_` key in a header, Clerk's `CLERK_SECRET_KEY`,
    Resend's `re_` key in Python, a Cohere client given its key, `NOMAD_TOKEN`, Directus' `SECRET` and
    `ADMIN_PASSWORD`, Rancher's `CATTLE_BOOTSTRAP_PASSWORD`, Patroni's superuser password, FreeIPA's
    `ipa-server-install -a`, Seafile's admin password, `monero-wallet-rpc --rpc-login`, `tccli
    configure set secretKey`, Bundler's `BUNDLE_GEMS__…` credentials, AWX's `CONTROLLER_PASSWORD`, a
    LaunchDarkly SDK key in code, Filebeat's `cloud.auth`, a Neon database address, `turso db tokens
    create`, Hasura's admin secret, Xata's `xau_` key, a Qdrant client's `api_key`, `dokku
    postgres:info`'s DSN, a `~/.zuliprc`, Discourse's SMTP password, Weblate's admin password,
    SearXNG's `secret_key`, Frigate's RTSP password, `netdata-claim.sh -token=`, Wazuh's
    `authd.pass`, `cscli bouncers add`'s key, `OPENCTI_ADMIN_TOKEN`, `netbird up --setup-key` and
    frp's `auth.token`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng)
    if choice == 0:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["        env:", "        - name: ELASTIC_APM_SERVER_URL", '          value: "https://apm.acme.io:8200"',
                           "        - name: ELASTIC_APM_SECRET_TOKEN", f'          value: "{v}"', "        - name: ELASTIC_APM_SERVICE_NAME",
                           '          value: "shop-api"'], [v]
    if choice == 1:
        v = "rnd_" + rand(rng, ALNUM, 32)
        return "api_key", ["$ curl --request GET \\", "     --url 'https://api.render.com/v1/services?limit=20' \\",
                           "     --header 'accept: application/json' \\", f"     --header 'authorization: Bearer {v}'"], [v]
    if choice == 2:
        v = "sk_live_" + rand(rng, ALNUM, 40)
        return "api_key", ["# .env.local", f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_{rand(rng, ALNUM, 40)}", f"CLERK_SECRET_KEY={v}",
                           "NEXT_PUBLIC_CLERK_SIGN_IN_URL=/sign-in"], [v]
    if choice == 3:
        v = "re_" + rand(rng, ALNUM, 8) + "_" + rand(rng, ALNUM, 24)
        return "api_key", ["import resend", "", f'resend.api_key = "{v}"', "", "params: resend.Emails.SendParams = {",
                           '    "from": "Acme <orders@acme.io>",'], [v]
    if choice == 4:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["import cohere", "", f'co = cohere.ClientV2(api_key="{v}")', 'response = co.chat(model="command-r-plus",',
                           '    messages=[{"role": "user", "content": "Summarise this ticket"}])'], [v]
    if choice == 5:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ export NOMAD_ADDR=https://nomad.acme.io:4646", f"$ export NOMAD_TOKEN={v}", "$ nomad job status shop",
                           "ID            = shop", "Status        = running"], [v]
    if choice == 6:
        return "password", ["services:", "  directus:", "    image: directus/directus:11.3.2", "    environment:",
                            f'      SECRET: "{rand(rng, ALNUM, 32)}"', '      ADMIN_EMAIL: "admin@acme.io"', f'      ADMIN_PASSWORD: "{pw}"'], [pw]
    if choice == 7:
        return "password", ["$ docker run -d --restart=unless-stopped -p 80:80 -p 443:443 --privileged \\",
                            f"    -e CATTLE_BOOTSTRAP_PASSWORD={pw} \\", "    rancher/rancher:v2.9.3"], [pw]
    if choice == 8:
        return "password", ["postgresql:", "  listen: 0.0.0.0:5432", "  authentication:", "    superuser:", "      username: postgres",
                            f"      password: {pw}", "    replication:", "      username: replicator"], [pw]
    if choice == 9:
        return "password", [f"$ sudo ipa-server-install --unattended --realm ACME.IO --domain acme.io -a {pw} -p {pw}Dm --setup-dns --auto-forwarders",
                            "The IPA Master Server will be configured with:"], [pw]
    if choice == 10:
        return "password", ["    environment:", "      - DB_HOST=db", "      - TIME_ZONE=Europe/Oslo", "      - SEAFILE_ADMIN_EMAIL=admin@acme.io",
                            f"      - SEAFILE_ADMIN_PASSWORD={pw}", "      - SEAFILE_SERVER_LETSENCRYPT=false"], [pw]
    if choice == 11:
        return "password", [f"$ monero-wallet-rpc --wallet-file shop --rpc-bind-port 18083 --rpc-login monero:{pw} --daemon-address node.acme.io:18081",
                            "2026-11-24 09:12:44.123 I Monero 'Fluorine Fermi' (v0.18.3.4-release)"], [pw]
    if choice == 12:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ tccli configure set secretId AKID{rand(rng, ALNUM, 32)}", f"$ tccli configure set secretKey {v}",
                           "$ tccli configure set region ap-guangzhou"], [v]
    if choice == 13:
        v = rand(rng, HEX, 8) + ":" + rand(rng, HEX, 8)
        return "api_key", ["# .github/workflows/ci.yml", "    env:", f"      BUNDLE_GEMS__CONTRIBSYS__COM: {v}",
                           "    steps:", "      - run: bundle install"], [v]
    if choice == 14:
        return "password", ["$ export CONTROLLER_HOST=https://awx.acme.io", f"$ export CONTROLLER_USERNAME={user}",
                            f"$ export CONTROLLER_PASSWORD='{pw}'", "$ awx job_templates list -f human"], [pw]
    if choice == 15:
        v = "sdk-" + str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ['import * as ld from "@launchdarkly/node-server-sdk";', "",
                           f'const client = ld.init("{v}");', "await client.waitForInitialization({ timeout: 10 });"], [v]
    if choice == 16:
        return "password", ["# filebeat.yml", "cloud.id: \"shop:" + base64.b64encode(("eu-west-1.aws.found.io$" + rand(rng, HEX, 32)).encode()).decode() + "\"",
                            f'cloud.auth: "elastic:{pw}"', "filebeat.inputs:", "- type: filestream"], [pw]
    if choice == 17:
        v = "npg_" + rand(rng, ALNUM, 12)
        return "api_key", ["# .env", f"DATABASE_URL=postgresql://shop_owner:{v}@ep-{rand(rng, string.ascii_lowercase, 6)}-{rand(rng, string.ascii_lowercase, 5)}-{rand(rng, string.ascii_lowercase + string.digits, 8)}.eu-central-1.aws.neon.tech/shop?sslmode=require"], [v]
    if choice == 18:
        v = jwt(rng)
        return "api_key", ["$ turso db tokens create shop", v, "$ turso db show shop --url"], [v]
    if choice == 19:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["  graphql-engine:", "    image: hasura/graphql-engine:v2.44.0", "    environment:",
                           "      HASURA_GRAPHQL_DATABASE_URL: postgres://postgres:${PGPASSWORD}@postgres:5432/shop",
                           f"      HASURA_GRAPHQL_ADMIN_SECRET: {v}", '      HASURA_GRAPHQL_ENABLE_CONSOLE: "true"'], [v]
    if choice == 20:
        v = "xau_" + rand(rng, ALNUM, 36)
        return "api_key", ["# .env", f"XATA_API_KEY={v}", "XATA_BRANCH=main"], [v]
    if choice == 21:
        v = rand(rng, ALNUM + "-_", 48)
        return "api_key", ["from qdrant_client import QdrantClient", "",
                           f'client = QdrantClient(url="https://{rand(rng, HEX, 8)}-{rand(rng, HEX, 4)}.eu-central.aws.cloud.qdrant.io:6333", api_key="{v}")',
                           'print(client.get_collections())'], [v]
    if choice == 22:
        return "password", ["$ dokku postgres:info shop", "=====> shop postgres service information", "       Config dir:           /var/lib/dokku/services/postgres/shop/data",
                            f"       Dsn:                  postgres://postgres:{pw}@dokku-postgres-shop:5432/shop",
                            "       Status:               running"], [pw]
    if choice == 23:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ cat ~/.zuliprc", "[api]", f"email={user}-bot@acme.zulipchat.com", f"key={v}", "site=https://acme.zulipchat.com"], [v]
    if choice == 24:
        return "password", ["env:", "  DISCOURSE_HOSTNAME: 'forum.acme.io'", "  DISCOURSE_SMTP_ADDRESS: smtp.mailgun.org", "  DISCOURSE_SMTP_PORT: 587",
                            f"  DISCOURSE_SMTP_USER_NAME: postmaster@mg.acme.io", f"  DISCOURSE_SMTP_PASSWORD: \"{pw}\""], [pw]
    if choice == 25:
        return "password", ["# weblate/environment", "WEBLATE_SITE_DOMAIN=translate.acme.io", "WEBLATE_ADMIN_EMAIL=admin@acme.io",
                            f"WEBLATE_ADMIN_PASSWORD={pw}", "WEBLATE_SERVER_EMAIL=weblate@acme.io"], [pw]
    if choice == 26:
        v = rand(rng, HEX, 64)
        return "api_key", ["# searxng/settings.yml", "use_default_settings: true", "server:", f'  secret_key: "{v}"', "  limiter: true",
                           "  image_proxy: true"], [v]
    if choice == 27:
        return "password", ["$ docker run -d --name frigate --shm-size=512m \\", "    -v /srv/frigate/config:/config \\",
                            f"    -e FRIGATE_RTSP_PASSWORD='{pw}' \\", "    ghcr.io/blakeblackshear/frigate:stable"], [pw]
    if choice == 28:
        v = rand(rng, ALNUM + "-_", 135)
        return "api_key", [f"$ sudo netdata-claim.sh -token={v} -rooms={uuid.UUID(bytes=rng.randbytes(16))} -url=https://app.netdata.cloud",
                           "Agent was successfully claimed."], [v]
    if choice == 29:
        return "password", [f'$ echo "{pw}" | sudo tee /var/ossec/etc/authd.pass', pw, "$ sudo chmod 640 /var/ossec/etc/authd.pass",
                            "$ sudo systemctl restart wazuh-manager"], [pw]
    if choice == 30:
        v = rand(rng, ALNUM + "+/", 32)
        return "api_key", ["$ sudo cscli bouncers add firewall", "API key for 'firewall':", "", f"   {v}", "",
                           "Please keep this key since you will not be able to retrieve it!"], [v]
    if choice == 31:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["  opencti:", "    image: opencti/platform:6.4.1", "    environment:", "      - NODE_OPTIONS=--max-old-space-size=8096",
                           "      - APP__BASE_URL=http://localhost:8080", "      - APP__ADMIN__EMAIL=admin@acme.io", f"      - APP__ADMIN__TOKEN={v}"], [v]
    if choice == 32:
        v = str(uuid.UUID(bytes=rng.randbytes(16))).upper()
        return "api_key", [f"$ sudo netbird up --management-url https://netbird.acme.io --setup-key {v}", "Connected"], [v]
    v = rand(rng, ALNUM, 32)
    return "api_key", ["# frps.toml", "bindPort = 7000", 'auth.method = "token"', f'auth.token = "{v}"', "vhostHTTPPort = 8080"], [v]


def thirty_third_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["        - name: ELASTIC_APM_SECRET_TOKEN", "          valueFrom:", "            secretKeyRef:",
                "              name: apm-server-apm-token", "              key: secret-token"]
    if choice == 1:
        return [f'{{"service": {{"id": "srv-{rand(rng, string.ascii_lowercase + string.digits, 20)}", "name": "shop-api",',
                '  "type": "web_service", "suspended": "not_suspended"}}']
    if choice == 2:
        return ["// middleware.ts", 'import { clerkMiddleware } from "@clerk/nextjs/server";', "export default clerkMiddleware();",
                f"// user_{rand(rng, ALNUM, 27)}"]
    if choice == 3:
        return ['{', f'  "id": "{uuid.UUID(bytes=rng.randbytes(16))}",', '  "from": "Acme <orders@acme.io>",', '  "to": ["ana@example.com"],',
                '  "last_event": "delivered"', '}']
    if choice == 4:
        return ["import cohere", "", "co = cohere.ClientV2()  # reads CO_API_KEY from the environment",
                'response = co.embed(texts=["refund policy"], model="embed-english-v3.0")']
    if choice == 5:
        return ["$ nomad job status shop", "ID            = shop", "Status        = running",
                f"Allocations", f"ID        Node ID   Task Group  Version  Desired  Status", f"{rand(rng, HEX, 8)}  {rand(rng, HEX, 8)}  web         3        run      running"]
    if choice == 6:
        return ["services:", "  directus:", "    image: directus/directus:11.3.2", "    environment:",
                '      SECRET: "${DIRECTUS_SECRET}"', '      ADMIN_EMAIL: "admin@acme.io"', '      ADMIN_PASSWORD: "${DIRECTUS_ADMIN_PASSWORD}"']
    if choice == 7:
        return ["$ docker logs rancher 2>&1 | grep \"Bootstrap Password:\"",
                "2026/11/24 09:12:44 [INFO] Bootstrap Password: (set via CATTLE_BOOTSTRAP_PASSWORD)"]
    if choice == 8:
        return ["$ patronictl -c /etc/patroni.yml list", "+ Cluster: shop (" + str(rng.randint(10**18, 10**19 - 1)) + ") ----+",
                "| Member | Host      | Role    | State     | TL | Lag in MB |", f"| pg-1   | 10.0.8.21 | Leader  | running   | {rng.randint(1, 9)}  |           |"]
    if choice == 9:
        return ["$ ipa user-find ana", "--------------", "1 user matched", "--------------", "  User login: ana",
                f"  UID: {rng.randint(1000000, 1999999)}", "  Account disabled: False"]
    if choice == 10:
        return ["$ docker exec -it seafile /opt/seafile/seafile-server-latest/reset-admin.sh", "E-mail: admin@acme.io",
                "Password: ", "Password (again): ", "Superuser created successfully."]
    if choice == 11:
        return ["$ monero-wallet-cli --wallet-file shop", f"Opened wallet: 4{rand(rng, ALNUM, 15)}...", "Balance: 1.250000000000, unlocked balance: 1.250000000000"]
    if choice == 12:
        return ["$ tccli cvm DescribeInstances --region ap-guangzhou", "{", f'    "TotalCount": {rng.randint(1, 9)},',
                f'    "InstanceId": "ins-{rand(rng, string.ascii_lowercase + string.digits, 8)}"', "}"]
    if choice == 13:
        return ["$ bundle install", "Fetching gem metadata from https://gems.contribsys.com/..", "Fetching sidekiq-pro 7.3.2",
                "Bundle complete! 48 Gemfile dependencies, 131 gems now installed."]
    if choice == 14:
        return ["$ awx job_templates list -f human", "id name", "== ===========", f"{rng.randint(5, 99)}  Deploy shop",
                f"{rng.randint(100, 200)} Rotate certificates"]
    if choice == 15:
        return ['const showNewCheckout = await client.variation("new-checkout", context, false);',
                f'// flag key: new-checkout, version {rng.randint(2, 40)}']
    if choice == 16:
        return ["# filebeat.yml", 'cloud.id: "${ELASTIC_CLOUD_ID}"', 'cloud.auth: "${ELASTIC_CLOUD_AUTH}"', "filebeat.inputs:", "- type: filestream"]
    if choice == 17:
        return ["$ neonctl branches list", "┌──────────────────────────┬──────┬─────────┐", "│ Id                       │ Name │ Primary │",
                f"│ br-{rand(rng, string.ascii_lowercase, 6)}-{rand(rng, string.ascii_lowercase, 5)}-{rand(rng, string.ascii_lowercase + string.digits, 8)} │ main │ true    │"]
    if choice == 18:
        return ["$ turso db show shop", "Name:           shop", f"URL:            libsql://shop-acme.turso.io",
                f"ID:             {uuid.UUID(bytes=rng.randbytes(16))}", "Locations:      fra"]
    if choice == 19:
        return ["  graphql-engine:", "    environment:", "      HASURA_GRAPHQL_ADMIN_SECRET: ${HASURA_ADMIN_SECRET}",
                '      HASURA_GRAPHQL_UNAUTHORIZED_ROLE: "anonymous"']
    if choice == 20:
        return ["$ xata branches list", "main   created 2026-10-02", f"feat/refunds-{rand(rng, HEX, 6)}   created 2026-11-20"]
    if choice == 21:
        return ['client.upsert(collection_name="products", points=[', f'    PointStruct(id="{uuid.UUID(bytes=rng.randbytes(16))}", vector=vec, payload={{"sku": "A-{rng.randint(1000, 9999)}"}})',
                "])"]
    if choice == 22:
        return ["$ dokku postgres:info shop", "=====> shop postgres service information", "       Dsn:                  postgres://postgres:<redacted>@dokku-postgres-shop:5432/shop",
                "       Status:               running"]
    if choice == 23:
        return ["$ zulip-send --stream general --subject deploys --message 'shop 2026.11.24 is live'", f"Message sent (id {rng.randint(10**6, 10**7)})"]
    if choice == 24:
        return ["env:", "  DISCOURSE_HOSTNAME: 'forum.acme.io'", "  DISCOURSE_SMTP_ADDRESS: smtp.mailgun.org", "  DISCOURSE_SMTP_PORT: 587",
                "  DISCOURSE_SMTP_ENABLE_START_TLS: true"]
    if choice == 25:
        return ["$ docker compose exec weblate weblate createadmin --username admin --email admin@acme.io",
                "Created admin account with password generated and mailed to the admin address."]
    if choice == 26:
        return ["# searxng/settings.yml", "search:", "  safe_search: 0", "  autocomplete: duckduckgo", "  formats:", "    - html", "    - json"]
    if choice == 27:
        return ["cameras:", "  front_door:", "    ffmpeg:", "      inputs:", "        - path: rtsp://viewer:{FRIGATE_RTSP_PASSWORD}@10.0.8.31:554/stream1",
                "          roles: [detect]"]
    if choice == 28:
        return ["$ sudo netdatacli reload-health", "OK", f"$ curl -s localhost:19999/api/v1/info | jq .version", f'"v2.1.{rng.randint(0, 9)}"']
    if choice == 29:
        return ["$ sudo /var/ossec/bin/agent_control -l", "Wazuh agent_control. List of available agents:",
                f"   ID: 000, Name: wazuh-manager (server), IP: 127.0.0.1, Active/Local", f"   ID: 0{rng.randint(10, 99)}, Name: web-01, IP: 10.0.8.21, Active"]



def thirty_fourth_secret_case(rng):
    """The thirty-fourth pool (`--pool thirty-fourth`): written after the thirty-third pool's round,
    before any rule was run on it, from places none of the thirty-three earlier pools has: Akeyless'
    `--access-key`, Conjur's `CONJUR_AUTHN_API_KEY`, a Bitbucket app password in Pipelines, `sem
    connect`, Octopus' `--apiKey API-…`, Harness' `x-api-key: pat.…`, `PERCY_TOKEN`, Chromatic's
    `--project-token`, `cypress run --record --key`, `saucectl configure -a`, a LambdaTest hub
    address, Applitools' `setApiKey`, ImageKit's `privateKey`, an Ably key in code, PubNub's
    `secretKey`, `vonage config:set --api-secret`, Telnyx's `KEY…` bearer, Mailjet's `auth=(…, …)`,
    Flutterwave's `FLWSECK-`, Honeybadger's `hbp_`, a Together client's key, Langfuse's `sk-lf-`,
    `modal token set --token-secret`, Zitadel's `--masterkey`, and the passwords of pgAdmin,
    Elasticsearch's `ELASTIC_PASSWORD`, Keycloak's `db-password`, WordPress, PhotoPrism, BookStack,
    Metabase, Gitea's `GITEA__database__PASSWD`, LLDAP and MLflow's tracking server."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng)
    if choice == 0:
        v = rand(rng, ALNUM + "+/", 40) + "="
        return "api_key", [f"$ akeyless auth --access-id p-{rand(rng, string.ascii_lowercase + string.digits, 12)} --access-key {v} --access-type access_key",
                           "Authentication succeeded.", f"Token: t-{rand(rng, HEX, 32)}"], [v]
    if choice == 1:
        v = rand(rng, string.ascii_lowercase + string.digits, 55)
        return "api_key", ["$ docker run --rm \\", "    -e CONJUR_APPLIANCE_URL=https://conjur.acme.io \\", "    -e CONJUR_ACCOUNT=acme \\",
                           "    -e CONJUR_AUTHN_LOGIN=host/shop/ci \\", f"    -e CONJUR_AUTHN_API_KEY={v} \\", "    cyberark/conjur-cli:8 variable get -i shop/db/password"], [v]
    if choice == 2:
        v = "ATBB" + rand(rng, ALNUM, 32)
        return "api_key", ["# bitbucket-pipelines.yml", "      - step:", "          script:",
                           f"            - curl -u {user}:{v} -X POST https://api.bitbucket.org/2.0/repositories/acme/shop/downloads -F files=@dist/shop.zip"], [v]
    if choice == 3:
        v = rand(rng, ALNUM, 20)
        return "api_key", [f"$ sem connect acme.semaphoreci.com {v}", "connected to acme.semaphoreci.com", "$ sem get projects"], [v]
    if choice == 4:
        v = "API-" + rand(rng, string.ascii_uppercase + string.digits, 27)
        return "api_key", [f"$ octo push --package dist/Shop.1.4.2.zip --server https://deploy.acme.io --apiKey {v} --space Default",
                           "Pushing package: dist/Shop.1.4.2.zip...", "Push successful"], [v]
    if choice == 5:
        v = "pat." + rand(rng, ALNUM + "-_", 22) + "." + rand(rng, HEX, 24) + "." + rand(rng, ALNUM, 20)
        return "api_key", ["$ curl -s 'https://app.harness.io/gateway/ng/api/projects?accountIdentifier=acme' \\",
                           f"    -H 'x-api-key: {v}' | jq '.data.content[].project.name'"], [v]
    if choice == 6:
        v = "web_" + rand(rng, HEX, 64)
        return "api_key", ["# .github/workflows/visual.yml", "      - run: npx percy exec -- npm test", "        env:",
                           f"          PERCY_TOKEN: {v}"], [v]
    if choice == 7:
        v = "chpt_" + rand(rng, HEX, 14)
        return "api_key", [f"$ npx chromatic --project-token={v} --exit-zero-on-changes", "Chromatic CLI v11.18.1",
                           "✔ Authenticated with Chromatic"], [v]
    if choice == 8:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ npx cypress run --record --key {v} --parallel --ci-build-id $GITHUB_RUN_ID",
                           "====================================================================================================",
                           "  (Run Starting)"], [v]
    if choice == 9:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ saucectl configure -u {user} -a {v}", "You're all set!", "$ saucectl run"], [v]
    if choice == 10:
        v = rand(rng, ALNUM, 50)
        return "api_key", ["caps = {'browserName': 'Chrome', 'LT:Options': {'platformName': 'Windows 11'}}",
                           f'driver = webdriver.Remote(command_executor="https://{user}:{v}@hub.lambdatest.com/wd/hub", options=opts)'], [v]
    if choice == 11:
        v = rand(rng, ALNUM, 44) + "110"
        return "api_key", ["Eyes eyes = new Eyes(runner);", f'eyes.setApiKey("{v}");', 'eyes.open(driver, "Shop", "Checkout page");'], [v]
    if choice == 12:
        v = "private_" + rand(rng, ALNUM + "+/", 27) + "="
        return "api_key", ['const ImageKit = require("imagekit");', "const imagekit = new ImageKit({", f'  publicKey: "public_{rand(rng, ALNUM + "+/", 27)}=",',
                           f'  privateKey: "{v}",', '  urlEndpoint: "https://ik.imagekit.io/acme"', "});"], [v]
    if choice == 13:
        v = rand(rng, ALNUM + "_-", 43)
        return "api_key", ["import * as Ably from 'ably';", "",
                           f"const ably = new Ably.Realtime('{rand(rng, ALNUM, 6)}.{rand(rng, ALNUM, 6)}:{v}');",
                           "const channel = ably.channels.get('orders');"], [v]
    if choice == 14:
        v = "sec-c-" + base64.b64encode(rng.randbytes(36)).decode()
        return "api_key", ["const pubnub = new PubNub({", f'  publishKey: "pub-c-{uuid.UUID(bytes=rng.randbytes(16))}",',
                           f'  subscribeKey: "sub-c-{uuid.UUID(bytes=rng.randbytes(16))}",', f'  secretKey: "{v}",', '  userId: "shop-api",', "});"], [v]
    if choice == 15:
        v = rand(rng, ALNUM, 16)
        return "api_key", [f"$ vonage config:set --api-key={rand(rng, HEX, 8)} --api-secret={v}", "✅ Configuration saved to ~/.vonagerc"], [v]
    if choice == 16:
        v = "KEY" + rand(rng, string.ascii_uppercase + string.digits, 32) + "_" + rand(rng, ALNUM, 22)
        return "api_key", ["$ curl -X POST https://api.telnyx.com/v2/messages \\", '    -H "Content-Type: application/json" \\',
                           f'    -H "Authorization: Bearer {v}" \\', """    -d '{"from": "+4722000000", "to": "+4791234567", "text": "Your order shipped"}'"""], [v]
    if choice == 17:
        v = rand(rng, HEX, 32)
        return "api_key", ["from mailjet_rest import Client", "", f'mailjet = Client(auth=("{rand(rng, HEX, 32)}", "{v}"), version="v3.1")',
                           "result = mailjet.send.create(data=data)"], [v]
    if choice == 18:
        v = "FLWSECK-" + rand(rng, HEX, 32) + "-X"
        return "api_key", ["# .env", f"FLW_PUBLIC_KEY=FLWPUBK-{rand(rng, HEX, 32)}-X", f"FLW_SECRET_KEY={v}", "FLW_ENCRYPTION_KEY=" + rand(rng, HEX, 24)], [v]
    if choice == 19:
        v = "hbp_" + rand(rng, ALNUM, 36)
        return "api_key", ["# config/honeybadger.yml", "---", f'api_key: "{v}"', "env: production", "insights:", "  enabled: true"], [v]
    if choice == 20:
        v = rand(rng, HEX, 64)
        return "api_key", ["from together import Together", "", f'client = Together(api_key="{v}")',
                           'resp = client.chat.completions.create(model="meta-llama/Llama-3.3-70B-Instruct-Turbo", messages=msgs)'], [v]
    if choice == 21:
        v = "sk-lf-" + str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["# .env", f"LANGFUSE_PUBLIC_KEY=pk-lf-{uuid.UUID(bytes=rng.randbytes(16))}", f"LANGFUSE_SECRET_KEY={v}",
                           "LANGFUSE_HOST=https://cloud.langfuse.com"], [v]
    if choice == 22:
        v = "as-" + rand(rng, ALNUM, 22)
        return "api_key", [f"$ modal token set --token-id ak-{rand(rng, ALNUM, 22)} --token-secret {v}", "Token verified successfully!",
                           "Token written to /home/ana/.modal.toml in profile acme."], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f'$ zitadel start-from-init --masterkey "{v}" --tlsMode disabled', "time=\"2026-11-24T09:12:44Z\" level=info msg=\"setup started\""], [v]
    if choice == 24:
        return "password", ["$ docker run -p 5050:80 \\", "    -e 'PGADMIN_DEFAULT_EMAIL=admin@acme.io' \\", f"    -e 'PGADMIN_DEFAULT_PASSWORD={pw}' \\",
                            "    -d dpage/pgadmin4"], [pw]
    if choice == 25:
        return "password", ["  es01:", "    image: docker.elastic.co/elasticsearch/elasticsearch:8.16.1", "    environment:",
                            "      - node.name=es01", f"      - ELASTIC_PASSWORD={pw}", "      - xpack.security.enabled=true"], [pw]
    if choice == 26:
        return "password", ["# conf/keycloak.conf", "db=postgres", f"db-username={user}", f"db-password={pw}", "db-url=jdbc:postgresql://db.internal/keycloak",
                            "hostname=sso.acme.io"], [pw]
    if choice == 27:
        return "password", ["  wordpress:", "    image: wordpress:6.7", "    environment:", "      WORDPRESS_DB_HOST: db", "      WORDPRESS_DB_USER: wp",
                            f"      WORDPRESS_DB_PASSWORD: {pw}", "      WORDPRESS_DB_NAME: shop"], [pw]
    if choice == 28:
        return "password", ["    environment:", '      PHOTOPRISM_ADMIN_USER: "admin"', f'      PHOTOPRISM_ADMIN_PASSWORD: "{pw}"',
                            '      PHOTOPRISM_SITE_URL: "https://photos.acme.io/"'], [pw]
    if choice == 29:
        return "password", ["# /var/www/bookstack/.env", "APP_URL=https://wiki.acme.io", "DB_HOST=localhost", "DB_DATABASE=bookstack",
                            f"DB_USERNAME={user}", f"DB_PASSWORD={pw}"], [pw]
    if choice == 30:
        return "password", ["$ docker run -d -p 3000:3000 \\", "    -e MB_DB_TYPE=postgres -e MB_DB_DBNAME=metabase -e MB_DB_PORT=5432 \\",
                            f"    -e MB_DB_USER={user} -e MB_DB_PASS={pw} -e MB_DB_HOST=db.internal \\", "    --name metabase metabase/metabase"], [pw]
    if choice == 31:
        return "password", ["    environment:", "      - GITEA__database__DB_TYPE=postgres", "      - GITEA__database__HOST=db:5432",
                            "      - GITEA__database__USER=gitea", f"      - GITEA__database__PASSWD={pw}"], [pw]
    if choice == 32:
        return "password", ["# lldap.env", "LLDAP_JWT_SECRET=" + rand(rng, ALNUM, 32), f"LLDAP_LDAP_USER_PASS={pw}", "LLDAP_LDAP_BASE_DN=dc=acme,dc=io"], [pw]
    return "password", ["$ export MLFLOW_TRACKING_URI=https://mlflow.acme.io", f"$ export MLFLOW_TRACKING_USERNAME={user}",
                        f"$ export MLFLOW_TRACKING_PASSWORD={pw}", "$ mlflow experiments search"], [pw]


def thirty_fourth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["$ akeyless list-items --path /shop", "/shop/db-password   STATIC_SECRET", "/shop/stripe-key    STATIC_SECRET",
                f"/shop/tls           CERTIFICATE  {rand(rng, HEX, 8)}"]
    if choice == 1:
        return ["$ conjur variable get -i shop/db/password", "Error: CONJ00076E Variable shop/db/password is empty or not found."]
    if choice == 2:
        return ["# bitbucket-pipelines.yml", "      - step:", "          script:", "            - curl -u $BB_USER:$BB_APP_PASSWORD -X POST $DOWNLOADS_URL -F files=@dist/shop.zip"]
    if choice == 3:
        return ["$ sem get projects", "NAME       REPOSITORY", "shop       git@github.com:acme/shop.git", "billing    git@github.com:acme/billing.git"]
    if choice == 4:
        return ["$ octo list-releases --project Shop --server https://deploy.acme.io", f"Release 1.4.{rng.randint(1, 9)}  Assembled 2026-11-24",
                f"  Package Shop {rand(rng, HEX, 7)}"]
    if choice == 5:
        return [f'{{"status": "SUCCESS", "data": {{"identifier": "shop_{rand(rng, string.ascii_lowercase, 6)}", "orgIdentifier": "default"}},',
                f' "correlationId": "{uuid.UUID(bytes=rng.randbytes(16))}"}}']
    if choice == 6:
        return ["[percy] Percy has started!", f"[percy] Snapshot taken: Checkout page", f"[percy] Finalized build #{rng.randint(100, 999)}: https://percy.io/acme/shop/builds/{rng.randint(10**7, 10**8)}"]
    if choice == 7:
        return ["✔ Build 1042 published", f"View your Storybook at https://{rand(rng, HEX, 24)}-{rand(rng, string.ascii_lowercase, 10)}.chromatic.com"]
    if choice == 8:
        return ["  (Run Finished)", "       Spec                Tests  Passing  Failing", "  ✔  checkout.cy.ts       12       12        -",
                f"  Recorded Run: https://cloud.cypress.io/projects/{rand(rng, string.ascii_lowercase + string.digits, 6)}/runs/{rng.randint(100, 9999)}"]
    if choice == 9:
        return ["$ saucectl run", f"Suite: Chrome checkout  Job: https://app.saucelabs.com/tests/{rand(rng, HEX, 32)}", "Passed: 14  Failed: 0"]
    if choice == 10:
        return ["caps = {'browserName': 'Chrome', 'LT:Options': {'platformName': 'Windows 11'}}",
                'driver = webdriver.Remote(command_executor=f"https://{LT_USER}:{LT_KEY}@hub.lambdatest.com/wd/hub", options=opts)']
    if choice == 11:
        return ["eyes.setApiKey(System.getenv(\"APPLITOOLS_API_KEY\"));", 'eyes.open(driver, "Shop", "Checkout page");',
                f"// batch id {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 12:
        return [f'<img src="https://ik.imagekit.io/acme/tr:w-400/products/{rand(rng, ALNUM, 10)}.jpg" alt="Running shoe">']
    if choice == 13:
        return ["const ably = new Ably.Realtime({ authUrl: '/api/ably-token' });", "const channel = ably.channels.get('orders');",
                f"// connection id {rand(rng, ALNUM, 10)}-{rng.randint(10, 99)}"]
    if choice == 14:
        return ["const pubnub = new PubNub({", f'  publishKey: "pub-c-{uuid.UUID(bytes=rng.randbytes(16))}",',
                f'  subscribeKey: "sub-c-{uuid.UUID(bytes=rng.randbytes(16))}",', '  userId: "browser-ana",', "});"]
    if choice == 15:
        return ["$ vonage numbers list", "Country  Number        Type", f"NO       47{rng.randint(10**7, 10**8 - 1)}   mobile-lvn"]
    if choice == 16:
        return ['{"data": {"record_type": "message", "direction": "outbound",', f'  "id": "{uuid.UUID(bytes=rng.randbytes(16))}", "status": "queued"}}}}']
    if choice == 17:
        return ['{"Messages": [{"Status": "success", "To": [{"Email": "ana@example.com",', f'  "MessageUUID": "{uuid.UUID(bytes=rng.randbytes(16))}",',
                f'  "MessageID": {rng.randint(10**16, 10**17)}}}]}}]}}']
    if choice == 18:
        return ['{"status": "success", "data": {', f'  "tx_ref": "shop-{rng.randint(10000, 99999)}", "flw_ref": "FLW-MOCK-{rand(rng, HEX, 32)}",', '  "amount": 2500, "currency": "NGN"}}']
    if choice == 19:
        return ["** [Honeybadger] Reporting error id=" + str(uuid.UUID(bytes=rng.randbytes(16))), "NoMethodError: undefined method `total' for nil"]
    if choice == 20:
        return ["from together import Together", "", "client = Together()  # TOGETHER_API_KEY from the environment",
                f'# model card: https://api.together.ai/models/{rand(rng, string.ascii_lowercase, 8)}']
    if choice == 21:
        return ["# .env", f"LANGFUSE_PUBLIC_KEY=pk-lf-{uuid.UUID(bytes=rng.randbytes(16))}", "LANGFUSE_HOST=https://cloud.langfuse.com"]
    if choice == 22:
        return ["$ modal app list", "App ID                      Name   State", f"ap-{rand(rng, ALNUM, 22)}   shop   deployed"]
    if choice == 23:
        return ["$ zitadel start-from-init --masterkeyFromEnv --tlsMode disabled", 'time="2026-11-24T09:12:44Z" level=info msg="setup started"']
    if choice == 24:
        return ["$ docker logs pgadmin | tail -2", "[2026-11-24 09:12:44 +0000] [1] [INFO] Listening at: http://[::]:80 (1)",
                f"[2026-11-24 09:12:44 +0000] [{rng.randint(80, 120)}] [INFO] Booting worker with pid: {rng.randint(80, 120)}"]
    if choice == 25:
        return ["$ curl -s -u elastic:$ELASTIC_PASSWORD https://localhost:9200/_cat/indices?v", "health status index    docs.count",
                f"green  open   orders   {rng.randint(1000, 99999)}"]
    if choice == 26:
        return ["# conf/keycloak.conf", "db=postgres", "db-username=keycloak", "db-url=jdbc:postgresql://db.internal/keycloak", "hostname=sso.acme.io",
                "http-enabled=true"]
    if choice == 27:
        return ["  wordpress:", "    image: wordpress:6.7", "    environment:", "      WORDPRESS_DB_HOST: db",
                "      WORDPRESS_DB_PASSWORD_FILE: /run/secrets/db_password"]
    if choice == 28:
        return ["$ photoprism index", f"INFO indexed {rng.randint(100, 9000)} files in {rng.randint(10, 99)}s", f"INFO thumbs: {rand(rng, HEX, 40)}.jpg"]
    return ["$ mlflow experiments search", "Experiment Id  Name          Artifact Location", f"{rng.randint(1, 40)}              shop-ranker   s3://acme-mlflow/{rng.randint(1, 40)}"]


def thirty_fifth_secret_case(rng):
    """The thirty-fifth pool (`--pool thirty-fifth`): written after the thirty-fourth pool's round,
    before any rule was run on it, from places none of the thirty-four earlier pools has: Akamai's
    `.edgerc`, a Bitwarden Secrets Manager access token, `koyeb --token`, Convex's deploy key, Deno
    Deploy's `ddp_`, AssemblyAI, Deepgram's `Token` header, Weaviate's `Auth.api_key`, Paddle's
    `pdl_live_apikey_`, Lemon Squeezy's key, a Coinbase API secret, `HEX_API_KEY`, Dart's
    `pub-tokens.json`, a Twingate connector's tokens, a Pinggy token as an ssh user, APISIX's
    `X-API-KEY`, Tyk's `x-tyk-authorization`, a Pulsar token in `--auth-params`, Artifactory's
    `X-JFrog-Art-Api`, a Gerrit HTTP password, Redmine's `X-Redmine-API-Key`, a Phabricator `.arcrc`,
    Rocket.Chat's `X-Auth-Token`, `immich login`, Firefly III's cron token in a URL's path; and the
    passwords of `ziti edge login`, Kong's `KONG_PG_PASSWORD`, EMQX's dashboard, Jitsi's
    `JVB_AUTH_PASSWORD`, FreshRSS' `create-user.php`, a Subsonic `p=` in a URL, `valkey-cli -a`,
    `filebrowser users add` and linkding's superuser."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng, also="?=#")
    if choice == 0:
        v = rand(rng, ALNUM + "+/", 43) + "="
        return "api_key", ["# ~/.edgerc", "[default]", f"client_secret = {v}", f"host = akab-{rand(rng, string.ascii_lowercase + string.digits, 16)}-{rand(rng, string.ascii_lowercase + string.digits, 16)}.luna.akamaiapis.net",
                           f"access_token = akab-{rand(rng, string.ascii_lowercase + string.digits, 16)}-{rand(rng, string.ascii_lowercase + string.digits, 16)}",
                           f"client_token = akab-{rand(rng, string.ascii_lowercase + string.digits, 16)}-{rand(rng, string.ascii_lowercase + string.digits, 16)}"], [v]
    if choice == 1:
        v = f"0.{uuid.UUID(bytes=rng.randbytes(16))}.{rand(rng, ALNUM, 30)}:{base64.b64encode(rng.randbytes(16)).decode()}"
        return "api_key", [f"$ bws secret list --access-token {v}", "[", '  {', f'    "id": "{uuid.UUID(bytes=rng.randbytes(16))}",', '    "key": "DB_URL",'], [v]
    if choice == 2:
        v = rand(rng, ALNUM, 64)
        return "api_key", [f"$ koyeb service list --token {v}", "ID          APP    NAME   STATUS    CREATED AT",
                           f"{rand(rng, HEX, 8)}    shop   web    HEALTHY   24 Nov 26 09:12 UTC"], [v]
    if choice == 3:
        v = "prod:" + rng.choice(["happy-otter", "brave-lynx", "quiet-heron"]) + f"-{rng.randint(100, 999)}|" + "eyJ2MiI6I" + rand(rng, ALNUM, 80)
        return "api_key", ["# Vercel → Settings → Environment Variables", f"CONVEX_DEPLOY_KEY={v}", "Build command: npx convex deploy --cmd 'npm run build'"], [v.split("|")[1]]
    if choice == 4:
        v = "ddp_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ DENO_DEPLOY_TOKEN={v} deployctl deploy --project=shop --prod main.ts",
                           "✔ Deployment complete.", "  View at: https://shop.deno.dev"], [v]
    if choice == 5:
        v = rand(rng, HEX, 32)
        return "api_key", ["import assemblyai as aai", "", f'aai.settings.api_key = "{v}"', 'transcript = aai.Transcriber().transcribe("meeting.mp3")'], [v]
    if choice == 6:
        v = rand(rng, HEX, 40)
        return "api_key", ["$ curl -X POST 'https://api.deepgram.com/v1/listen?model=nova-3' \\", f"    -H 'Authorization: Token {v}' \\",
                           "    -H 'Content-Type: audio/wav' --data-binary @call.wav"], [v]
    if choice == 7:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["import weaviate", "from weaviate.classes.init import Auth", "", "client = weaviate.connect_to_weaviate_cloud(",
                           '    cluster_url="https://shop-x1y2.c0.europe-west3.gcp.weaviate.cloud",', f'    auth_credentials=Auth.api_key("{v}"),', ")"], [v]
    if choice == 8:
        v = "pdl_live_apikey_01" + rand(rng, string.ascii_lowercase + string.digits, 24) + "_" + rand(rng, ALNUM, 22) + "_A" + rand(rng, string.ascii_uppercase, 2)
        return "api_key", ["# .env.production", "PADDLE_ENVIRONMENT=production", f"PADDLE_API_KEY={v}", f"PADDLE_NOTIFICATION_WEBHOOK_SECRET=pdl_ntfset_01{rand(rng, string.ascii_lowercase + string.digits, 24)}_{rand(rng, ALNUM, 32)}"], [v]
    if choice == 9:
        v = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9." + rand(rng, ALNUM + "-_", 150) + "." + rand(rng, ALNUM + "-_", 80)
        return "api_key", ["import { lemonSqueezySetup } from '@lemonsqueezy/lemonsqueezy.js';", "",
                           f"lemonSqueezySetup({{ apiKey: '{v}' }});"], [v.split(".")[1], v.split(".")[2]]
    if choice == 10:
        v = base64.b64encode(rng.randbytes(64)).decode()
        return "api_key", ["# coinbase-advanced.env", f"COINBASE_API_KEY=organizations/{uuid.UUID(bytes=rng.randbytes(16))}/apiKeys/{uuid.UUID(bytes=rng.randbytes(16))}",
                           f"COINBASE_API_SECRET={v}"], [v]
    if choice == 11:
        v = rand(rng, HEX, 32)
        return "api_key", ["# .github/workflows/publish.yml", "      - run: mix hex.publish --yes", "        env:", f"          HEX_API_KEY: {v}"], [v]
    if choice == 12:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ cat ~/.config/dart/pub-tokens.json", '{"version":1,"hosted":[{"url":"https://dart.acme.io",', f'  "token":"{v}"}}]}}'], [v]
    if choice == 13:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ docker run -d --name twingate-connector \\", "    -e TWINGATE_NETWORK=acme \\",
                           f"    -e TWINGATE_ACCESS_TOKEN=eyJhbGciOiJFUzI1NiIsImtpZCI6I{rand(rng, ALNUM, 60)} \\", f"    -e TWINGATE_REFRESH_TOKEN={v} \\",
                           "    twingate/connector:1"], [v]
    if choice == 14:
        v = rand(rng, ALNUM, 12)
        return "api_key", [f"$ ssh -p 443 -R0:localhost:8080 {v}+tcp@pro.pinggy.io", "You are not authenticated.", "http://shop-ana.a.pinggy.link"], [v]
    if choice == 15:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ curl http://127.0.0.1:9180/apisix/admin/routes/1 \\", f"    -H 'X-API-KEY: {v}' -X PUT -d '", '{"uri": "/shop/*", "upstream": {"type": "roundrobin",',
                           '  "nodes": {"10.0.8.21:8080": 1}}}\''], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ curl -s http://localhost:8080/tyk/apis \\", f"    -H 'x-tyk-authorization: {v}' | jq '.[].name'", '"Shop API"'], [v]
    if choice == 17:
        v = "eyJhbGciOiJIUzI1NiJ9." + rand(rng, ALNUM + "-_", 30) + "." + rand(rng, ALNUM + "-_", 43)
        return "api_key", ["$ bin/pulsar-admin \\", "    --auth-plugin org.apache.pulsar.client.impl.auth.AuthenticationToken \\",
                           f"    --auth-params token:{v} \\", "    tenants list"], [v.split(".")[1], v.split(".")[2]]
    if choice == 18:
        v = "AKCp8" + rand(rng, ALNUM, 68)
        return "api_key", [f"$ curl -H 'X-JFrog-Art-Api: {v}' \\", "    -T dist/shop-1.4.2.tgz https://acme.jfrog.io/artifactory/npm-local/shop/-/shop-1.4.2.tgz"], [v]
    if choice == 19:
        v = rand(rng, ALNUM + "+/", 42)
        return "api_key", [f"$ curl --user {user}:{v} https://review.acme.io/a/changes/?q=status:open", ")]}'", '[{"id": "shop~main~I8473b95934b5732ac55d26311a706c9c2bde9940"}]'], [v]
    if choice == 20:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ curl -H 'X-Redmine-API-Key: {v}' https://redmine.acme.io/issues.json?project_id=shop", '{"issues":[{"id":4821,"subject":"Checkout fails on Safari"}]}'], [v]
    if choice == 21:
        v = "api-" + rand(rng, string.ascii_lowercase + string.digits, 28)
        return "api_key", ["$ cat ~/.arcrc", "{", '  "hosts": {', '    "https://phab.acme.io/api/": {', f'      "token": "{v}"', "    }", "  }", "}"], [v]
    if choice == 22:
        v = rand(rng, ALNUM + "-_", 43)
        return "api_key", ["$ curl https://chat.acme.io/api/v1/chat.postMessage \\", f'    -H "X-Auth-Token: {v}" \\',
                           f'    -H "X-User-Id: {rand(rng, ALNUM, 17)}" \\', """    -d '{"channel": "#deploys", "text": "shop 1.4.2 is live"}'"""], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 43)
        return "api_key", [f"$ immich login https://photos.acme.io/api {v}", "Logging in to https://photos.acme.io/api", f"Logged in as {user}@acme.io"], [v]
    if choice == 24:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ crontab -l", f"0 3 * * * wget -qO- https://money.acme.io/api/v1/cron/{v}"], [v]
    if choice == 25:
        return "password", [f"$ ziti edge login ctrl.acme.io:1280 -u admin -p {pw} -y", "Token: " + str(uuid.UUID(bytes=rng.randbytes(16))), "Saving identity 'default' to /home/ana/.config/ziti/ziti-cli.json"], [pw]
    if choice == 26:
        return "password", ["$ docker run -d --name kong \\", "    -e KONG_DATABASE=postgres -e KONG_PG_HOST=db.internal \\", f"    -e KONG_PG_USER=kong -e KONG_PG_PASSWORD={pw} \\",
                            "    -p 8000:8000 kong:3.8"], [pw]
    if choice == 27:
        return "password", ["  emqx:", "    image: emqx/emqx:5.8.3", "    environment:", "      - EMQX_NODE__NAME=emqx@node1.acme.io",
                            f"      - EMQX_DASHBOARD__DEFAULT_PASSWORD={pw}"], [pw]
    if choice == 28:
        return "password", ["# ~/.jitsi-meet-cfg/.env", "PUBLIC_URL=https://meet.acme.io", f"JICOFO_AUTH_PASSWORD={rand(rng, HEX, 32)}", f"JVB_AUTH_PASSWORD={pw}", "TZ=Europe/Oslo"], [pw]
    if choice == 29:
        return "password", [f"$ ./cli/create-user.php --user {user} --password '{pw}' --language en", "ℹ️ Remember to refresh the feeds of the user: " + user], [pw]
    if choice == 30:
        return "password", [f"$ curl 'https://music.acme.io/rest/ping.view?u={user}&p={pw}&v=1.16.1&c=curl&f=json'", '{"subsonic-response":{"status":"ok","version":"1.16.1"}}'], [pw]
    if choice == 31:
        return "password", [f"$ valkey-cli -h cache.internal -a {pw} --no-auth-warning", "cache.internal:6379> INFO keyspace", "db0:keys=1421,expires=12"], [pw]
    if choice == 32:
        return "password", [f"$ filebrowser users add {user} {pw} --perm.admin", "ID  Username  Scope  Locale  V. Settings  Admin", f"2   {user}     .      en      false        true"], [pw]
    return "password", ["  linkding:", "    image: sissbruecker/linkding:1.36", "    environment:", f"      - LD_SUPERUSER_NAME={user}", f"      - LD_SUPERUSER_PASSWORD={pw}"], [pw]


def thirty_fifth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["$ http --auth-type edgegrid -a default: :/papi/v1/contracts", '{"contracts": {"items": [{"contractId": "ctr_' + rand(rng, string.ascii_uppercase + string.digits, 7) + '"}]}}']
    if choice == 1:
        return ["$ bws project list", "[", "  {", f'    "id": "{uuid.UUID(bytes=rng.randbytes(16))}",', f'    "organizationId": "{uuid.UUID(bytes=rng.randbytes(16))}",', '    "name": "shop"']
    if choice == 2:
        return ["$ koyeb service list", "ID          APP    NAME   STATUS    CREATED AT", f"{rand(rng, HEX, 8)}    shop   web    HEALTHY   24 Nov 26 09:12 UTC"]
    if choice == 3:
        return ["$ npx convex deploy", f"✔ Deployed Convex functions to https://{rng.choice(['happy-otter', 'brave-lynx'])}-{rng.randint(100, 999)}.convex.cloud"]
    if choice == 4:
        return ["$ deployctl deployments list --project=shop", "Deployment     Date                   Status", f"{rand(rng, string.ascii_lowercase + string.digits, 12)}   2026-11-24 09:12:44   Production"]
    if choice == 5:
        return ['{"id": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '", "status": "completed",', f'  "audio_duration": {rng.randint(30, 3600)}, "language_code": "en_us"}}']
    if choice == 6:
        return ['{"metadata": {"request_id": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '",', f'  "sha256": "{rand(rng, HEX, 64)}", "duration": {rng.randint(1, 600)}.{rng.randint(0, 9)}}}}}']
    if choice == 7:
        return ["client = weaviate.connect_to_local()", 'orders = client.collections.get("Order")', f'obj = orders.query.fetch_object_by_id("{uuid.UUID(bytes=rng.randbytes(16))}")']
    if choice == 8:
        return ['{"data": {"id": "txn_01' + rand(rng, string.ascii_lowercase + string.digits, 24) + '", "status": "completed",', f'  "customer_id": "ctm_01{rand(rng, string.ascii_lowercase + string.digits, 24)}", "currency_code": "EUR"}}}}']
    if choice == 9:
        return ['{"data": {"type": "orders", "id": "' + str(rng.randint(10**6, 10**7)) + '",', f'  "attributes": {{"identifier": "{uuid.UUID(bytes=rng.randbytes(16))}", "order_number": {rng.randint(1000, 99999)}}}}}}}']
    if choice == 10:
        return ["Sent 0.0125 ETH", f"To: 0x{rand(rng, HEX, 40)}", f"Transaction: 0x{rand(rng, HEX, 64)}"]
    if choice == 11:
        return ["$ mix hex.outdated", "Dependency  Current  Latest  Status", "phoenix     1.7.14   1.7.18  Update possible",
                f"# checksum {rand(rng, HEX, 64)}"]
    if choice == 12:
        return ["$ dart pub token add https://dart.acme.io --env-var PUB_TOKEN", "Requests to \"https://dart.acme.io\" will now be authenticated using the secret token stored in the environment variable \"PUB_TOKEN\"."]
    if choice == 13:
        return ["$ docker logs twingate-connector | tail -2", f"[INFO] [libsdwan] State: Online", f"[INFO] connector id {rand(rng, ALNUM, 12)}=="]
    if choice == 14:
        return ["$ ssh -p 443 -R0:localhost:8080 a.pinggy.io", f"http://{rand(rng, string.ascii_lowercase + string.digits, 5)}-{rng.randint(10, 250)}-{rng.randint(10, 250)}-{rng.randint(10, 250)}-{rng.randint(10, 250)}.a.free.pinggy.link"]
    if choice == 15:
        return ["$ curl http://127.0.0.1:9180/apisix/admin/routes/1 -H \"X-API-KEY: $ADMIN_KEY\"", '{"value": {"uri": "/shop/*", "id": "1", "upstream": {"type": "roundrobin"}}}']
    if choice == 16:
        return ['{"name": "Shop API", "api_id": "' + rand(rng, HEX, 32) + '", "org_id": "' + rand(rng, HEX, 24) + '",', '  "use_keyless": false, "active": true}']
    if choice == 17:
        return ["$ bin/pulsar-admin topics list public/default", f'"persistent://public/default/orders-{rand(rng, HEX, 8)}"', '"persistent://public/default/payments"']
    if choice == 18:
        return ['{"repo": "npm-local", "path": "/shop/-/shop-1.4.2.tgz",', f'  "checksums": {{"sha1": "{rand(rng, HEX, 40)}", "sha256": "{rand(rng, HEX, 64)}"}}}}']
    if choice == 19:
        return [f"Change-Id: I{rand(rng, HEX, 40)}", f"Reviewed-on: https://review.acme.io/c/shop/+/{rng.randint(1000, 99999)}", "Reviewed-by: Ana Lima <ana@acme.io>"]
    if choice == 20:
        return ['{"issues":[{"id":' + str(rng.randint(1000, 9999)) + ',"subject":"Checkout fails on Safari",', '  "created_on":"2026-11-24T09:12:44Z","done_ratio":0}]}']
    if choice == 21:
        return ["$ arc diff", f"Revision URI: https://phab.acme.io/D{rng.randint(100, 9999)}", f"Included changes: {rand(rng, HEX, 12)}"]
    if choice == 22:
        return ['{"message": {"_id": "' + rand(rng, ALNUM, 17) + '", "rid": "' + rand(rng, ALNUM, 17) + '",', '  "msg": "shop 1.4.2 is live"}, "success": true}']
    if choice == 23:
        return ["$ immich upload --recursive ~/Pictures/2026", f"Found {rng.randint(10, 900)} new files", f"Uploaded asset {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 24:
        return ["$ crontab -l", "0 3 * * * php /var/www/firefly/artisan firefly-iii:cron", f"# last run {rand(rng, HEX, 8)}"]
    if choice == 25:
        return ["$ ziti edge list identities", "║ ID         │ NAME       │ TYPE    ║", f"║ {rand(rng, ALNUM, 10)} │ shop-api   │ Default ║"]
    if choice == 26:
        return ["$ curl -s localhost:8001/services | jq '.data[].id'", f'"{uuid.UUID(bytes=rng.randbytes(16))}"', f'"{uuid.UUID(bytes=rng.randbytes(16))}"']
    if choice == 27:
        return ["$ emqx ctl clients list", f"Client(mqttx_{rand(rng, HEX, 8)}, username=sensor-12, peername=10.0.8.21:{rng.randint(30000, 60000)}, clean_start=true)"]
    if choice == 28:
        return ["$ valkey-cli INFO server | head -4", "# Server", "valkey_version:8.0.1", f"run_id:{rand(rng, HEX, 40)}"]
    return ["$ ./cli/list-users.php", "admin", "ana", f"$ ./cli/actualize-user.php --user ana", f"FreshRSS actualized {rng.randint(2, 90)} feeds for ana"]


def thirty_sixth_secret_case(rng):
    """The thirty-sixth pool (`--pool thirty-sixth`): written after the thirty-fifth pool's first
    fixes, before any rule was run on it, from places none of the thirty-five earlier pools has:
    Actual Budget's `api.init({ password })`, KeyCDN's `curl -u KEY:`, imgix's `ak_`, Uploadcare's
    `Uploadcare.Simple PUB:SECRET`, Transloadit's auth secret, Mux's `MUX_TOKEN_SECRET`, Wistia's
    `api_password=`, Agora's app certificate, Daily's `apiKey`, 100ms' app secret, Stream's
    `StreamChat.getInstance(key, secret)`, Sendbird's `Api-Token`, Knock's `sk_`, Novu's
    `secretKey`, OneSignal's `os_v2_app_`, Amplitude's secret key, Raygun's `apikey=` attribute,
    Airbrake's `project_key`, Checkly's `cu_`, UptimeRobot's form `api_key=`, Better Stack's
    heartbeat address, `cronitor configure --api-key`, a Healthchecks ping key in an address,
    `VULTR_API_KEY`, Exoscale's `exoscale.toml`, `civo apikey save`, Taiga's secret key; and the
    passwords of FerretDB's PostgreSQL address, OpenProject's seeded admin, BigBlueButton's
    `bbb-conf --setsecret`, Pydio Cells' `set-pwd`, wallabag's database, Gogs' `app.ini` and
    Tiny Tiny RSS."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng, also="?=#")
    if choice == 0:
        return "password", ["import * as api from '@actual-app/api';", "", "await api.init({", "  dataDir: '/srv/actual-cache',",
                            "  serverURL: 'https://budget.acme.io',", f"  password: '{pw}',", "});"], [pw]
    if choice == 1:
        v = rand(rng, ALNUM, 64)
        return "api_key", [f"$ curl -u {v}: https://api.keycdn.com/zones.json", '{"status":"success","description":"Zones","data":{"zones":[]}}'], [v]
    if choice == 2:
        v = "ak_" + rand(rng, HEX, 64)
        return "api_key", ["$ curl -X POST https://api.imgix.com/api/v1/purge \\", f"    -H 'Authorization: Bearer {v}' \\",
                           """    -d '{"data": {"attributes": {"url": "https://acme.imgix.net/hero.jpg"}, "type": "purges"}}'"""], [v]
    if choice == 3:
        v = rand(rng, HEX, 20)
        return "api_key", ["$ curl https://api.uploadcare.com/files/ \\", '    -H "Accept: application/vnd.uploadcare-v0.7+json" \\',
                           f'    -H "Authorization: Uploadcare.Simple {rand(rng, HEX, 20)}:{v}"'], [v]
    if choice == 4:
        v = rand(rng, HEX, 40)
        return "api_key", ["const transloadit = new Transloadit({", f"  authKey: '{rand(rng, HEX, 32)}',", f"  authSecret: '{v}',", "})"], [v]
    if choice == 5:
        v = rand(rng, ALNUM + "+/", 75)
        return "api_key", ["# .env.local", f"MUX_TOKEN_ID={uuid.UUID(bytes=rng.randbytes(16))}", f"MUX_TOKEN_SECRET={v}"], [v]
    if choice == 6:
        v = rand(rng, HEX, 64)
        return "api_key", [f"$ curl 'https://api.wistia.com/v1/medias.json?api_password={v}&project_id=shop'", '[{"id":4821,"name":"Checkout demo"}]'], [v]
    if choice == 7:
        v = rand(rng, HEX, 32)
        return "api_key", ["# server/.env", f"AGORA_APP_ID={rand(rng, HEX, 32)}", f"AGORA_APP_CERTIFICATE={v}", "TOKEN_EXPIRY_SECONDS=3600"], [v]
    if choice == 8:
        v = rand(rng, HEX, 64)
        return "api_key", ["import { DailyClient } from './daily';", "", f'const daily = new DailyClient({{ apiKey: "{v}" }});',
                           "const room = await daily.rooms.create({ privacy: 'private' });"], [v]
    if choice == 9:
        v = base64.b64encode(rng.randbytes(48)).decode()
        return "api_key", ["# 100ms", f"HMS_APP_ACCESS_KEY={rand(rng, HEX, 24)}", f"HMS_APP_SECRET={v}"], [v]
    if choice == 10:
        v = rand(rng, string.ascii_lowercase + string.digits, 64)
        return "api_key", ["const { StreamChat } = require('stream-chat');", "",
                           f"const client = StreamChat.getInstance('{rand(rng, string.ascii_lowercase + string.digits, 12)}', '{v}');"], [v]
    if choice == 11:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ curl https://api-{uuid.UUID(bytes=rng.randbytes(16))}.sendbird.com/v3/users \\", f"    -H 'Api-Token: {v}'"], [v]
    if choice == 12:
        v = "sk_" + rand(rng, ALNUM + "-_", 43)
        return "api_key", ["# .env", f"KNOCK_API_KEY={v}", "KNOCK_PUBLIC_API_KEY=pk_" + rand(rng, ALNUM + "-_", 43)], [v]
    if choice == 13:
        v = rand(rng, HEX, 32)
        return "api_key", ["import { Novu } from '@novu/api';", "", f"const novu = new Novu({{ secretKey: '{v}' }});"], [v]
    if choice == 14:
        v = "os_v2_app_" + rand(rng, string.ascii_lowercase + "234567", 100)
        return "api_key", ["$ curl -X POST https://api.onesignal.com/notifications \\", f"    -H 'Authorization: Key {v}' \\",
                           """    -d '{"app_id": "shop", "contents": {"en": "Your order shipped"}}'"""], [v]
    if choice == 15:
        v = rand(rng, HEX, 32)
        return "api_key", ["# export job", f"AMPLITUDE_API_KEY={rand(rng, HEX, 32)}", f"AMPLITUDE_SECRET_KEY={v}", "EXPORT_START=20261101T00"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 22)
        return "api_key", ["<configSections>", '  <section name="RaygunSettings" type="Mindscape.Raygun4Net.RaygunSettings, Mindscape.Raygun4Net" />',
                           "</configSections>", f'<RaygunSettings apikey="{v}" />'], [v]
    if choice == 17:
        v = rand(rng, HEX, 32)
        return "api_key", ["# config/initializers/airbrake.rb", "Airbrake.configure do |c|", f"  c.project_id = {rng.randint(100000, 999999)}",
                           f"  c.project_key = '{v}'", "end"], [v]
    if choice == 18:
        v = "cu_" + rand(rng, HEX, 32)
        return "api_key", ["# .github/workflows/checkly.yml", "      - run: npx checkly deploy --force", "        env:",
                           f"          CHECKLY_API_KEY: {v}", f"          CHECKLY_ACCOUNT_ID: {uuid.UUID(bytes=rng.randbytes(16))}"], [v]
    if choice == 19:
        v = "u" + str(rng.randint(1000000, 9999999)) + "-" + rand(rng, HEX, 24)
        return "api_key", ["$ curl -X POST https://api.uptimerobot.com/v2/getMonitors \\", "    -H 'Content-Type: application/x-www-form-urlencoded' \\",
                           f"    -d 'api_key={v}&format=json&logs=1'"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["$ crontab -l", f"30 2 * * * /usr/local/bin/backup.sh && curl -fsS https://uptime.betterstack.com/api/v1/heartbeat/{v}"], [v]
    if choice == 21:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ cronitor configure --api-key {v}", "Configuration File: /etc/cronitor/cronitor.json", "Api Key: " + v[:4] + "…"], [v]
    if choice == 22:
        v = rand(rng, ALNUM + "-_", 22)
        return "api_key", ["$ crontab -l", f"0 4 * * * restic backup /srv && curl -fsS -m 10 --retry 5 https://hc-ping.com/{v}/backup-nightly"], [v]
    if choice == 23:
        v = rand(rng, string.ascii_uppercase + string.digits, 36)
        return "api_key", [f"$ export VULTR_API_KEY={v}", "$ vultr-cli instance list", "ID                                      IP              LABEL"], [v]
    if choice == 24:
        v = rand(rng, ALNUM + "-_", 43)
        return "api_key", ["# ~/.config/exoscale/exoscale.toml", 'defaultaccount = "acme"', "", "[[accounts]]", '  account = "acme"',
                           f'  key = "EXO{rand(rng, HEX, 24)}"', f'  secret = "{v}"', '  defaultZone = "ch-gva-2"'], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 50)
        return "api_key", [f"$ civo apikey save acme {v}", "Saved the API Key acme", "$ civo apikey current acme"], [v]
    if choice == 26:
        v = rand(rng, ALNUM + "!#%^*()-_+", 50)
        return "api_key", ["# taiga-docker/.env", "TAIGA_SCHEME=https", "TAIGA_DOMAIN=taiga.acme.io", f"TAIGA_SECRET_KEY={v}"], [v]
    if choice == 27:
        return "password", ["  ferretdb:", "    image: ghcr.io/ferretdb/ferretdb:2", "    environment:",
                            f"      - FERRETDB_POSTGRESQL_URL=postgres://{user}:{pw}@postgres:5432/postgres"], [pw]
    if choice == 28:
        return "password", ["  openproject:", "    image: openproject/openproject:15", "    environment:",
                            "      OPENPROJECT_HOST__NAME: pm.acme.io", f"      OPENPROJECT_SEED_ADMIN_USER_PASSWORD: {pw}"], [pw]
    if choice == 29:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ sudo bbb-conf --setsecret {v}", "Assigning secret in /etc/bigbluebutton/bbb-web.properties", "Restarting BigBlueButton ..."], [v]
    if choice == 30:
        return "password", [f"$ cells admin user set-pwd --login {user} --password '{pw}'", "Successfully updated password for user " + user], [pw]
    if choice == 31:
        return "password", ["    environment:", "      - SYMFONY__ENV__DATABASE_DRIVER=pdo_pgsql", "      - SYMFONY__ENV__DATABASE_HOST=db",
                            "      - SYMFONY__ENV__DATABASE_USER=wallabag", f"      - SYMFONY__ENV__DATABASE_PASSWORD={pw}"], [pw]
    if choice == 32:
        return "password", ["# custom/conf/app.ini", "[database]", "DB_TYPE  = postgres", "HOST     = 127.0.0.1:5432", f"USER     = {user}",
                            f"PASSWD   = {pw}", "NAME     = gogs"], [pw]
    return "password", ["  app:", "    image: cthulhoo/ttrss-fpm-pgsql-static", "    environment:", "      - TTRSS_DB_HOST=db",
                        f"      - TTRSS_DB_USER={user}", f"      - TTRSS_DB_PASS={pw}"], [pw]


def thirty_sixth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["await api.init({", "  dataDir: '/srv/actual-cache',", "  serverURL: 'https://budget.acme.io',", "  password: process.env.ACTUAL_PASSWORD,", "});"]
    if choice == 1:
        return ['{"status":"success","data":{"zones":[{"id":"' + str(rng.randint(100000, 999999)) + '","name":"shopcdn","url":"https://shop.acme.io"}]}}']
    if choice == 2:
        return [f'<img src="https://acme.imgix.net/hero.jpg?w=800&auto=format&s={rand(rng, HEX, 32)}" alt="Hero">']
    if choice == 3:
        return ['{"uuid": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '", "original_filename": "invoice.pdf", "size": ' + str(rng.randint(1000, 999999)) + '}']
    if choice == 4:
        return ['{"ok": "ASSEMBLY_COMPLETED", "assembly_id": "' + rand(rng, HEX, 32) + '",', f'  "assembly_ssl_url": "https://api2-ap.transloadit.com/assemblies/{rand(rng, HEX, 32)}"}}']
    if choice == 5:
        return [f'<mux-player playback-id="{rand(rng, ALNUM, 40)}" metadata-video-title="Checkout demo"></mux-player>']
    if choice == 6:
        return [f'<script src="https://fast.wistia.com/embed/medias/{rand(rng, string.ascii_lowercase + string.digits, 10)}.jsonp" async></script>']
    if choice == 7:
        return ["# server/.env", f"AGORA_APP_ID={rand(rng, HEX, 32)}", "AGORA_APP_CERTIFICATE=${AGORA_CERT}", "TOKEN_EXPIRY_SECONDS=3600"]
    if choice == 8:
        return ['{"id": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '", "name": "' + rand(rng, string.ascii_letters, 20) + '",', '  "url": "https://acme.daily.co/' + rand(rng, string.ascii_letters, 20) + '", "privacy": "private"}']
    if choice == 9:
        return ['{"id": "' + rand(rng, HEX, 24) + '", "room_id": "' + rand(rng, HEX, 24) + '", "role": "host", "type": "app"}']
    if choice == 10:
        return ["const client = StreamChat.getInstance(process.env.STREAM_KEY, process.env.STREAM_SECRET);", f"const channel = client.channel('messaging', '{rand(rng, string.ascii_lowercase, 8)}');"]
    if choice == 11:
        return ['{"user_id": "ana", "nickname": "Ana", "access_token": "",', f'  "profile_url": "https://sendbird.com/main/img/profiles/{rand(rng, HEX, 8)}.png"}}']
    if choice == 12:
        return ["# .env", "KNOCK_PUBLIC_API_KEY=pk_" + rand(rng, ALNUM + "-_", 43), "KNOCK_FEED_ID=" + str(uuid.UUID(bytes=rng.randbytes(16)))]
    if choice == 13:
        return ["const novu = new Novu({ secretKey: process.env.NOVU_SECRET_KEY });", f"await novu.trigger({{ workflowId: 'order-shipped', to: '{rand(rng, HEX, 24)}' }});"]
    if choice == 14:
        return ['{"id": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '", "external_id": null, "recipients": 1}']
    if choice == 15:
        return ['{"event_type": "checkout", "user_id": "' + rand(rng, HEX, 32) + '", "device_id": "' + str(uuid.UUID(bytes=rng.randbytes(16))) + '"}']
    if choice == 16:
        return ["<configSections>", '  <section name="RaygunSettings" type="Mindscape.Raygun4Net.RaygunSettings, Mindscape.Raygun4Net" />', "</configSections>",
                '<RaygunSettings apikey="#{RAYGUN_APIKEY}#" />']
    if choice == 17:
        return ["Airbrake.configure do |c|", f"  c.project_id = {rng.randint(100000, 999999)}", "  c.project_key = ENV['AIRBRAKE_PROJECT_KEY']", "end"]
    if choice == 18:
        return ["$ npx checkly test", f"Running 3 checks in eu-west-1.", f"  ✔ checkout.spec.ts > Checkout ({rng.randint(900, 3000)}ms)", f"Test session: https://app.checklyhq.com/test-sessions/{uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 19:
        return ['{"stat":"ok","monitors":[{"id":' + str(rng.randint(700000000, 799999999)) + ',"friendly_name":"shop","url":"https://shop.acme.io","status":2}]}']
    if choice == 20:
        return ["$ crontab -l", "30 2 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1"]
    if choice == 21:
        return ["$ cronitor list", f"backup-nightly   0 4 * * *   {rand(rng, string.ascii_letters, 6)}", "report-weekly    0 6 * * 1   " + rand(rng, string.ascii_letters, 6)]
    if choice == 22:
        return ["$ curl -fsS https://healthchecks.acme.io/api/v3/checks/ -H \"X-Api-Key: $HC_API_KEY\" | jq '.checks[].name'", '"backup-nightly"', '"restic-prune"']
    if choice == 23:
        return ["$ vultr-cli instance list", "ID                                      IP              LABEL", f"{uuid.UUID(bytes=rng.randbytes(16))}    {rng.randint(1, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}    shop-web"]
    if choice == 24:
        return ["$ exo compute instance list", "┼──────────────────────────────────────┼──────────┼──────────┼", f"│ {uuid.UUID(bytes=rng.randbytes(16))} │ shop-web │ ch-gva-2 │"]
    if choice == 25:
        return ["$ civo kubernetes list", "+--------------------------------------+------+----------+", f"| {uuid.UUID(bytes=rng.randbytes(16))} | shop | ACTIVE   |"]
    if choice == 26:
        return ["# taiga-docker/.env", "TAIGA_SCHEME=https", "TAIGA_DOMAIN=taiga.acme.io", "SUBPATH=\"\"", "WEBSOCKETS_SCHEME=wss"]
    if choice == 27:
        return ["$ bbb-conf --check | head -4", "BigBlueButton Server 3.0.4 (2891)", "    Kernel version: 6.1.0-27-amd64", f"    Secret: (hidden)  checksum {rand(rng, HEX, 40)}"]
    if choice == 28:
        return ["# custom/conf/app.ini", "[server]", "DOMAIN = git.acme.io", "HTTP_PORT = 3000", f"LFS_JWT_SECRET_FILE = /data/gogs/lfs_jwt"]
    return ["$ cells admin user search --login ana", "+------+-------+------------------+", f"| ana  | Admin | {uuid.UUID(bytes=rng.randbytes(16))} |"]


def thirty_seventh_secret_case(rng):
    """The thirty-seventh pool (`--pool thirty-seventh`): written after the thirty-sixth pool's
    fixes, before any rule was run on it, from places none of the thirty-six earlier pools has:
    Tekton's basic-auth Secret, Spinnaker's `hal … --client-secret`, Northflank's `login --token`,
    EdgeDB's `nbwt_` secret key, Dgraph's `--security "token=…"`, Gravitee's JWT secret, Waypoint's
    `-server-auth-token=`, sourcehut's `hut` config, OneDev's `curl -u USER:TOKEN`, Shiori's HTTP
    secret, Miniflux's `X-Auth-Token`, Ghostfolio's token salt, bunny.net's `AccessKey`, Segment's
    `sgp_`, FullStory's `na1.` key, Hetzner's `hcloud` token in Terraform, Dagger Cloud's token,
    Semgrep's app token, FOSSA's key, Appwrite's `.setKey(…)`, Fauna's `fn` secret, Storyblok's
    personal token, Matomo's `token_auth=`, Plausible's `SECRET_KEY_BASE`, a Grafana Cloud Loki
    push password, SigNoz's ingestion key, Instana's agent key; and the passwords of RavenDB's
    certificate, Dragonfly's `--requirepass=`, Earthly's `secret set`, Renovate's host rules,
    PocketBase's `superuser upsert`, UpCloud's API user and OpenObserve's `curl -u`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng, also="?=#;,")
    if choice == 0:
        return "password", ["apiVersion: v1", "kind: Secret", "metadata:", "  name: git-basic", "  annotations:",
                            "    tekton.dev/git-0: https://git.acme.io", "type: kubernetes.io/basic-auth", "stringData:",
                            f"  username: {user}", f"  password: {pw}"], [pw]
    if choice == 1:
        v = rand(rng, HEX, 40)
        return "api_key", ["$ hal config security authn oauth2 edit \\", f"    --client-id {rand(rng, HEX, 20)} \\", f"    --client-secret {v} \\",
                           "    --provider github", "+ Edit oauth2 authentication settings success"], [v]
    if choice == 2:
        v = "nf-" + rand(rng, ALNUM, 48)
        return "api_key", [f"$ northflank login --name acme --token {v}", "✔ Context acme created and set as current"], [v]
    if choice == 3:
        v = "nbwt_" + jwt(rng)
        return "api_key", ["# .env (production)", "EDGEDB_INSTANCE=acme/shop", f"EDGEDB_SECRET_KEY={v}"], [v]
    if choice == 4:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f'$ dgraph alpha --my=alpha:7080 --zero=zero:5080 --security "token={v};whitelist=10.0.0.0/8"',
                           "I1207 08:12:44.102 run.go:742] x.Config: {PortOffset:0 Limit:...}"], [v]
    if choice == 5:
        v = rand(rng, ALNUM, 48)
        return "api_key", ["# gravitee.yml", "jwt:", f"  secret: {v}", "  expire-after: 604800", "  issuer: gravitee-management-auth"], [v]
    if choice == 6:
        v = rand(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 90)
        return "api_key", ["$ waypoint context create \\", "    -server-addr=waypoint.acme.io:9701 \\", f"    -server-auth-token={v} \\",
                           "    -server-require-auth=true -set-default acme"], [v]
    if choice == 7:
        v = rand(rng, ALNUM + "+/", 84) + "=="
        return "api_key", ["# ~/.config/hut/config", 'instance "sr.ht" {', f'    access-token "{v}"', "}"], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ curl -u {user}:{v} https://onedev.acme.io/~api/projects?offset=0&count=20", '[{"id":1,"key":"SHOP","name":"shop"}]'], [v]
    if choice == 9:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["  shiori:", "    image: ghcr.io/go-shiori/shiori", "    environment:", "      SHIORI_DIR: /srv/shiori",
                           f"      SHIORI_HTTP_SECRET_KEY: {v}"], [v]
    if choice == 10:
        v = base64.urlsafe_b64encode(rng.randbytes(32)).decode()
        return "api_key", [f'$ curl -H "X-Auth-Token: {v}" https://rss.acme.io/v1/feeds | jq length', "42"], [v]
    if choice == 11:
        v = rand(rng, HEX, 64)
        return "api_key", ["# ghostfolio/.env", "POSTGRES_DB=ghostfolio-db", f"ACCESS_TOKEN_SALT={v}", f"JWT_SECRET_KEY={rand(rng, HEX, 64)}"], [v]
    if choice == 12:
        v = f"{uuid.UUID(bytes=rng.randbytes(16))}{uuid.UUID(bytes=rng.randbytes(16))}"
        return "api_key", [f'$ curl -s https://api.bunny.net/pullzone -H "AccessKey: {v}"', '[{"Id":812344,"Name":"shop-cdn"}]'], [v]
    if choice == 13:
        v = "sgp_" + rand(rng, ALNUM, 64)
        return "api_key", ["$ curl https://api.segmentapis.com/sources \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 14:
        v = "na1." + rand(rng, ALNUM + "+/", 72)
        return "api_key", ["# fullstory export job", "FS_ORG_ID=o-1A2B3C-na1", f"FULLSTORY_API_KEY={v}"], [v]
    if choice == 15:
        v = rand(rng, ALNUM, 64)
        return "api_key", ['provider "hcloud" {', f'  token = "{v}"', "}", "", 'resource "hcloud_server" "web" {', '  name        = "shop-web"'], [v]
    if choice == 16:
        v = "dag_acme_" + rand(rng, ALNUM, 40)
        return "api_key", ["      - name: Call Dagger", "        uses: dagger/dagger-for-github@v7", "        with:", "          verb: call",
                           f"          cloud-token: {v}"], [v]
    if choice == 17:
        v = rand(rng, HEX, 64)
        return "api_key", ["# .gitlab-ci.yml", "semgrep:", "  image: semgrep/semgrep", "  variables:", f"    SEMGREP_APP_TOKEN: {v}", "  script: semgrep ci"], [v]
    if choice == 18:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ FOSSA_API_KEY={v} fossa analyze", "[ INFO] Analyzing project shop (revision 8c1e2f0)"], [v]
    if choice == 19:
        v = "standard_" + rand(rng, HEX, 128)
        return "api_key", ["const client = new Client()", "    .setEndpoint('https://cloud.appwrite.io/v1')", "    .setProject('shop')",
                           f"    .setKey('{v}');"], [v]
    if choice == 20:
        v = "fnA" + rand(rng, ALNUM + "-_", 37)
        return "api_key", ["import { Client } from 'fauna';", "", f'const client = new Client({{ secret: "{v}" }});'], [v]
    if choice == 21:
        v = f"{rand(rng, ALNUM, 22)}-{rng.randint(100000, 999999)}-{rand(rng, ALNUM + '_', 20)}"
        return "api_key", [f"$ storyblok login --token {v} --region eu", "✓ Successfully logged in with token"], [v]
    if choice == 22:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ curl 'https://stats.acme.io/index.php?module=API&method=VisitsSummary.get&idSite=1&period=day&date=today&format=JSON&token_auth={v}'",
                           '{"nb_visits":1284,"nb_actions":4410}'], [v]
    if choice == 23:
        v = base64.b64encode(rng.randbytes(48)).decode()
        return "api_key", ["# plausible-conf.env", "BASE_URL=https://plausible.acme.io", f"SECRET_KEY_BASE={v}", "TOTP_VAULT_KEY=" + base64.b64encode(rng.randbytes(32)).decode()], [v]
    if choice == 24:
        v = "glc_" + base64.b64encode(rng.randbytes(66)).decode().rstrip("=")
        return "api_key", ["clients:", "  - url: https://logs-prod-012.grafana.net/loki/api/v1/push", "    basic_auth:",
                           f"      username: {rng.randint(100000, 999999)}", f"      password: {v}"], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["exporters:", "  otlp:", '    endpoint: "ingest.eu.signoz.cloud:443"', "    headers:", f'      "signoz-ingestion-key": "{v}"'], [v]
    if choice == 26:
        v = rand(rng, ALNUM + "-_", 22)
        return "api_key", ["$ curl -o setup_agent.sh https://setup.instana.io/agent && chmod 700 ./setup_agent.sh &&", f"  sudo ./setup_agent.sh -a {v} -t dynamic -e ingress-red-saas.instana.io:443"], [v]
    if choice == 27:
        return "password", ["// settings.json", "{", '    "ServerUrl": "https://0.0.0.0:443",', '    "Security.Certificate.Path": "/opt/ravendb/cert.pfx",',
                            f'    "Security.Certificate.Password": "{pw}"', "}"], [pw]
    if choice == 28:
        return "password", [f"$ ./dragonfly --logtostderr --requirepass={pw} --cache_mode=true --maxmemory=4gb",
                            "I20261207 08:12:44.102 dfly_main.cc:646] Starting dragonfly df-v1.25.1"], [pw]
    if choice == 29:
        return "password", [f"$ earthly secret set /user/shop/db_password '{pw}'", "$ earthly secret ls /user/shop", "db_password"], [pw]
    if choice == 30:
        return "password", ["module.exports = {", "  hostRules: [{", "    matchHost: 'npm.acme.io',", f"    username: '{user}',",
                            f"    password: '{pw}',", "  }],", "};"], [pw]
    if choice == 31:
        return "password", [f"$ ./pocketbase superuser upsert {user}@acme.io {pw}", f'Successfully saved superuser "{user}@acme.io"!'], [pw]
    if choice == 32:
        return "password", ["$ export UPCLOUD_USERNAME=api-" + user, f"$ export UPCLOUD_PASSWORD='{pw}'", "$ upctl server list"], [pw]
    return "password", [f"$ curl -u {user}@acme.io:{pw} -k https://o2.acme.io/api/default/shop/_json \\", """    -d '[{"level":"info","msg":"deploy done"}]'""",
                        '{"code":200,"status":[{"name":"shop","successful":1,"failed":0}]}'], [pw]


def thirty_seventh_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["apiVersion: v1", "kind: Secret", "metadata:", "  name: git-basic", "  annotations:", "    tekton.dev/git-0: https://git.acme.io",
                "type: kubernetes.io/basic-auth"]
    if choice == 1:
        return ["$ hal config version edit --version 1.35.2", "+ Get current deployment", "  Success", "+ Edit Spinnaker version", "  Success"]
    if choice == 2:
        return ["$ northflank get service --projectId shop --serviceId api", f"  id: api", f"  buildId: {rand(rng, HEX, 40)}", "  status: RUNNING"]
    if choice == 3:
        return ["$ edgedb migration create", f"Created ./dbschema/migrations/00017-{rand(rng, string.ascii_lowercase + string.digits, 5)}.edgeql,",
                f"id m1{rand(rng, string.ascii_lowercase + string.digits, 50)}"]
    if choice == 4:
        return [f'$ dgraph alpha --my=alpha:7080 --zero=zero:5080 --security "whitelist=10.0.0.0/8"', f"I1207 08:12:44.102 run.go:742] Group id: {rng.randint(1, 9)}"]
    if choice == 5:
        return ["# gravitee.yml", "jwt:", "  secret: ${GRAVITEE_JWT_SECRET}", "  expire-after: 604800", "  issuer: gravitee-management-auth"]
    if choice == 6:
        return ["$ waypoint deploy -app shop", f"» Deploying shop...", f"✓ Deployment successfully rolled out! ID: 01{rand(rng, string.ascii_uppercase + string.digits, 24)}"]
    if choice == 7:
        return ["$ hut builds list", f"#{rng.randint(100000, 999999)} SUCCESS  {rand(rng, HEX, 7)}  Fix checkout totals  ~acme/shop"]
    if choice == 8:
        return ["$ curl -s https://onedev.acme.io/~api/projects/1 | jq .", '{"id":1,"key":"SHOP","name":"shop","description":"' + rand(rng, string.ascii_lowercase, 12) + '"}']
    if choice == 9:
        return ["  shiori:", "    image: ghcr.io/go-shiori/shiori", "    environment:", "      SHIORI_DIR: /srv/shiori", "      SHIORI_HTTP_SECRET_KEY_FILE: /run/secrets/shiori"]
    if choice == 10:
        return ["$ curl -s https://rss.acme.io/v1/feeds/12 | jq .checksum", f'"{rand(rng, HEX, 64)}"']
    if choice == 11:
        return ["# ghostfolio/.env", "POSTGRES_DB=ghostfolio-db", "ACCESS_TOKEN_SALT=<INSERT_RANDOM_STRING>", "JWT_SECRET_KEY=<INSERT_RANDOM_STRING>"]
    if choice == 12:
        return ['[{"Id":812344,"Name":"shop-cdn","OriginUrl":"https://shop.acme.io","StorageZoneId":' + str(rng.randint(100000, 999999)) + ',"Enabled":true}]']
    if choice == 13:
        return ['{"data":{"sources":[{"id":"' + rand(rng, ALNUM, 22) + '","slug":"shop_web","writeKeys":["' + rand(rng, ALNUM, 32) + '"]}]}}']
    if choice == 14:
        return [f"<script>window['_fs_org'] = 'o-{rand(rng, string.ascii_uppercase + string.digits, 6)}-na1';</script>"]
    if choice == 15:
        return ['provider "hcloud" {', "  token = var.hcloud_token", "}", "", 'resource "hcloud_server" "web" {', '  name        = "shop-web"']
    if choice == 16:
        return ["      - name: Call Dagger", "        uses: dagger/dagger-for-github@v7", "        with:", "          verb: call", "          cloud-token: ${{ secrets.DAGGER_CLOUD_TOKEN }}"]
    if choice == 17:
        return ["$ semgrep ci", f"  Scan ID: {rng.randint(10000000, 99999999)}", f"  Commit: {rand(rng, HEX, 40)}", "  Findings: 0 blocking"]
    if choice == 18:
        return ["$ fossa analyze", f"[ INFO] Using project name: `shop`", f"[ INFO] Using revision: `{rand(rng, HEX, 40)}`"]
    if choice == 19:
        return ["const client = new Client()", "    .setEndpoint('https://cloud.appwrite.io/v1')", f"    .setProject('{rand(rng, HEX, 20)}');"]
    if choice == 20:
        return ['{"data": {"id": "' + str(rng.randint(10**17, 10**18 - 1)) + '", "coll": "Order", "ts": "2026-12-07T08:12:44.102Z"}}']
    if choice == 21:
        return ["$ storyblok pull-components --space 287341", f"✓ Components pulled: components.287341.json ({rng.randint(10, 99)} components)"]
    if choice == 22:
        return [f"<script>var _paq = window._paq = []; _paq.push(['setSiteId', '{rng.randint(1, 30)}']); _paq.push(['setTrackerUrl', 'https://stats.acme.io/matomo.php']);</script>"]
    if choice == 23:
        return ["# plausible-conf.env", "BASE_URL=https://plausible.acme.io", "SECRET_KEY_BASE=replace-me", "DISABLE_REGISTRATION=invite_only"]
    if choice == 24:
        return ["clients:", "  - url: https://logs-prod-012.grafana.net/loki/api/v1/push", "    basic_auth:", f"      username: {rng.randint(100000, 999999)}",
                "      password_file: /etc/promtail/loki-token"]
    if choice == 25:
        return ["exporters:", "  otlp:", '    endpoint: "ingest.eu.signoz.cloud:443"', "    headers:", '      "signoz-ingestion-key": "${env:SIGNOZ_INGESTION_KEY}"']
    if choice == 26:
        return ["$ sudo systemctl status instana-agent", "● instana-agent.service - Instana Host Agent", f"   Main PID: {rng.randint(1000, 99999)} (java)"]
    if choice == 27:
        return ["// settings.json", "{", '    "ServerUrl": "https://0.0.0.0:443",', '    "Security.Certificate.Path": "/opt/ravendb/cert.pfx",',
                '    "Security.Certificate.Exec": "/opt/ravendb/get-cert.sh"', "}"]
    if choice == 28:
        return ["$ redis-cli -p 6379 INFO server | head -3", "# Server", "redis_version:7.4.0", f"dragonfly_version:df-v1.25.{rng.randint(1, 9)}"]
    return ["$ ./pocketbase serve --http=0.0.0.0:8090", "2026/12/07 08:12:44 Server started at http://0.0.0.0:8090", "├─ REST API:  http://0.0.0.0:8090/api/"]


def thirty_eighth_secret_case(rng):
    """The thirty-eighth pool (`--pool thirty-eighth`): written after the thirty-seventh pool's
    fixes, before any rule was run on it, from places none of the thirty-seven earlier pools has:
    Bugsnag's `Bugsnag.start({ apiKey })`, LogRocket's CLI `--apikey=`, mimirtool's `--key=`,
    Lightstep's access-token header in Python, GlitchTip's Django `SECRET_KEY`, Umami's
    `APP_SECRET`, Fathom's `N|…` API token, Simple Analytics' `Api-Key: sa_api_key_…`, Pirsch's
    client secret in Go, Prismic's access token, Hygraph's permanent token, Nhost's admin secret,
    Upstash's REST token, Flagsmith's `ser.` key, Unleash's `*:production.…` token, GrowthBook's
    `secret_admin_` key as a basic-auth user, ConfigCat's SDK key, Statsig's server secret,
    Split's SDK key in Java, 1Password Connect's token, zrok's short account token, inlets'
    `--token`, Expose's `expose token UUID`, Axiom's `xaat-` token, Tinybird's `p.` token,
    Better Stack's source token, Umami Cloud's `x-umami-api-key`; and the passwords of Quickwit's metastore address, ZincSearch's
    first admin, Highlight's `ADMIN_PASSWORD`, Unleash's default admin, Fathom's `user add`,
    pymssql's `connect(…)` and Ansible's `ansible_become_password`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng, also="?=#;,")
    if choice == 0:
        v = rand(rng, HEX, 32)
        return "api_key", ["import Bugsnag from '@bugsnag/js'", "", f"Bugsnag.start({{ apiKey: '{v}', appVersion: '4.2.0' }})"], [v]
    if choice == 1:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ npx logrocket-cli release 4.2.0 --apikey={v}", "Creating release 4.2.0... done"], [v]
    if choice == 2:
        v = rand(rng, ALNUM + "=", 40)
        return "api_key", [f"$ mimirtool rules load --address=https://mimir.acme.io --id=shop --key={v} rules.yaml",
                           "INFO[0000] updating group  group=shop-alerts namespace=rules.yaml"], [v]
    if choice == 3:
        v = rand(rng, ALNUM + "+/", 84)
        return "api_key", ["exporter = OTLPSpanExporter(", '    endpoint="ingest.lightstep.com:443",', f'    headers={{"lightstep-access-token": "{v}"}},', ")"], [v]
    if choice == 4:
        v = rand(rng, string.ascii_lowercase + string.digits + "!#%^&*(-_=+)", 50)
        return "api_key", ["  web:", "    image: glitchtip/glitchtip", "    environment:", f'      SECRET_KEY: "{v}"', "      PORT: 8000"], [v]
    if choice == 5:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["# umami/.env", "DATABASE_TYPE=postgresql", f"APP_SECRET={v}", "DISABLE_TELEMETRY=1"], [v]
    if choice == 6:
        v = f"{rng.randint(1, 999)}|{rand(rng, ALNUM, 40)}"
        return "api_key", ["$ curl https://api.usefathom.com/v1/sites \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 7:
        v = "sa_api_key_" + rand(rng, ALNUM, 30)
        return "api_key", ["$ curl 'https://simpleanalytics.com/api/export/datapoints?version=5&hostname=acme.io&start=today' \\",
                           f'    -H "Api-Key: {v}" -H "User-Id: sa_user_id_{uuid.UUID(bytes=rng.randbytes(16))}"'], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 64)
        return "api_key", [f'client := pirsch.NewClient("{rand(rng, ALNUM, 32)}", "{v}", nil)', "if err := client.Hit(r); err != nil {"], [v]
    if choice == 9:
        v = "MC5" + rand(rng, ALNUM, 30) + "." + rand(rng, ALNUM + "-_", 60)
        return "api_key", ["const client = prismic.createClient('acme-shop', {", f"  accessToken: '{v}',", "})"], [v]
    if choice == 10:
        v = jwt(rng)
        return "api_key", ["# .env.local", "HYGRAPH_ENDPOINT=https://eu-central-1.cdn.hygraph.com/content/ck8sn5tnf01gc01z89dbc7s0o/master",
                           f"HYGRAPH_TOKEN={v}"], [v]
    if choice == 11:
        v = rand(rng, ALNUM + "-_", 32)
        return "api_key", ["$ curl https://shop.hasura.eu-central-1.nhost.run/v1/graphql \\", f"    -H 'x-hasura-admin-secret: {v}' \\",
                           """    -d '{"query":"{ orders { id } }"}'"""], [v]
    if choice == 12:
        v = "A" + rng.choice("XYZ") + rand(rng, ALNUM, 66) + "="
        return "api_key", ["UPSTASH_REDIS_REST_URL=https://eu1-rapid-fox-31337.upstash.io", f'UPSTASH_REDIS_REST_TOKEN="{v}"'], [v]
    if choice == 13:
        v = "ser." + rand(rng, ALNUM, 22)
        return "api_key", ["from flagsmith import Flagsmith", "", f'flagsmith = Flagsmith(environment_key="{v}")'], [v]
    if choice == 14:
        v = "*:production." + rand(rng, HEX, 56)
        return "api_key", ["$ curl https://unleash.acme.io/api/client/features \\", f'    -H "Authorization: {v}"'], [v]
    if choice == 15:
        v = "secret_admin_" + rand(rng, ALNUM, 40)
        return "api_key", [f"$ curl https://api.growthbook.io/api/v1/features -u {v}:", '{"features":[],"limit":10,"offset":0,"count":0}'], [v]
    if choice == 16:
        v = f"configcat-sdk-1/{rand(rng, ALNUM + '-_', 22)}/{rand(rng, ALNUM + '-_', 22)}"
        # (The value is the key's random parts: its prefix is public and holds the module's name,
        # `configcat`, which the scorer would count as a leak wherever the import stays.)
        return "api_key", ["import configcatclient", "", f"client = configcatclient.get('{v}')", "enabled = client.get_value('newCheckout', False)"], [v.split("/", 1)[1]]
    if choice == 17:
        v = "secret-" + rand(rng, ALNUM, 43)
        return "api_key", ["# statsig.env", "STATSIG_ENVIRONMENT=production", f"STATSIG_SERVER_SECRET={v}"], [v]
    if choice == 18:
        v = rand(rng, string.ascii_lowercase + string.digits, 36)
        return "api_key", ["SplitClientConfig config = SplitClientConfig.builder().setBlockUntilReadyTimeout(10000).build();",
                           f'SplitFactory factory = SplitFactoryBuilder.build("{v}", config);'], [v]
    if choice == 19:
        v = jwt(rng)
        return "api_key", ["  op-connect-sync:", "    image: 1password/connect-sync:latest", "    environment:", f"      OP_CONNECT_TOKEN: {v}"], [v]
    if choice == 20:
        v = rand(rng, ALNUM, 12)
        return "api_key", [f"$ zrok enable {v}", "⣾ the zrok environment was successfully enabled..."], [v]
    if choice == 21:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["$ inlets-pro tcp client --url wss://203.0.113.7:8123 \\", f"    --token {v} \\", "    --upstream localhost --ports 2222"], [v]
    if choice == 22:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ expose token {v}", "Setting the Expose authentication token to \"" + v + "\""], [v]
    if choice == 23:
        v = f"xaat-{uuid.UUID(bytes=rng.randbytes(16))}"
        return "api_key", ["[sinks.axiom]", 'type = "axiom"', 'inputs = ["docker_logs"]', 'dataset = "shop"', f'token = "{v}"'], [v]
    if choice == 24:
        v = "p." + jwt(rng)
        return "api_key", [f"$ tb auth --host https://api.europe-west2.gcp.tinybird.co --token {v}", "** Auth successful!"], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["[sinks.better_stack]", 'type = "http"', 'uri = "https://in.logs.betterstack.com/"', 'encoding.codec = "json"',
                           'auth.strategy = "bearer"', f'auth.token = "{v}"'], [v]
    if choice == 26:
        return "password", ["  quickwit:", "    image: quickwit/quickwit", "    environment:",
                            f"      QW_METASTORE_URI: postgres://quickwit:{pw}@pg:5432/quickwit"], [pw]
    if choice == 27:
        return "password", [f"$ ZINC_FIRST_ADMIN_USER={user} ZINC_FIRST_ADMIN_PASSWORD='{pw}' ./zincsearch",
                            '{"level":"info","time":"2026-12-07T08:12:44Z","message":"Starting Zinc 0.4.10"}'], [pw]
    if choice == 28:
        return "password", ["# highlight/docker/.env", "IN_DOCKER=true", "ADMIN_PASSWORD=" + pw, "REACT_APP_AUTH_MODE=password"], [pw]
    if choice == 29:
        return "password", ["  unleash:", "    image: unleashorg/unleash-server", "    environment:", f"      UNLEASH_DEFAULT_ADMIN_USERNAME: {user}",
                            f"      UNLEASH_DEFAULT_ADMIN_PASSWORD: {pw}"], [pw]
    if choice == 30:
        return "password", [f"$ fathom user add --email={user}@acme.io --password={pw}", f'Created user {user}@acme.io'], [pw]
    if choice == 31:
        return "password", ["import pymssql", "", f'conn = pymssql.connect(server="db.acme.io", user="{user}", password="{pw}", database="shop")'], [pw]
    if choice == 32:
        return "password", ["# group_vars/web.yml", f"ansible_user: {user}", f"ansible_become_password: {pw}", "nginx_worker_processes: 4"], [pw]
    v = "api_" + rand(rng, ALNUM, 32)
    return "api_key", ["$ curl https://api.umami.is/v1/websites \\", f'    -H "x-umami-api-key: {v}" -H "Accept: application/json"'], [v]


def thirty_eighth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["import Bugsnag from '@bugsnag/js'", "", "Bugsnag.start({ apiKey: process.env.BUGSNAG_API_KEY, appVersion: '4.2.0' })"]
    if choice == 1:
        return [f"$ npx logrocket-cli release 4.2.0 --apikey=$LOGROCKET_API_KEY", "Creating release 4.2.0... done"]
    if choice == 2:
        return ["$ mimirtool rules list --address=https://mimir.acme.io --id=shop", "Namespace   | Rules Group", "rules.yaml  | shop-alerts"]
    if choice == 3:
        return ["exporter = OTLPSpanExporter(", '    endpoint="ingest.lightstep.com:443",', '    headers={"lightstep-access-token": os.environ["LS_ACCESS_TOKEN"]},', ")"]
    if choice == 4:
        return ["  web:", "    image: glitchtip/glitchtip", "    environment:", "      SECRET_KEY: ${GLITCHTIP_SECRET_KEY}", "      PORT: 8000"]
    if choice == 5:
        return ["# umami/.env", "DATABASE_TYPE=postgresql", "APP_SECRET=replace-me-with-a-random-string", "DISABLE_TELEMETRY=1"]
    if choice == 6:
        return ["$ curl -s https://api.usefathom.com/v1/sites | jq '.data[0]'", '{"id":"' + rand(rng, string.ascii_uppercase, 8) + '","name":"acme.io","sharing":"none"}']
    if choice == 7:
        return [f'<script async defer src="https://scripts.simpleanalyticscdn.com/latest.js" data-hostname="acme.io"></script>']
    if choice == 8:
        return ['client := pirsch.NewClient(os.Getenv("PIRSCH_CLIENT_ID"), os.Getenv("PIRSCH_CLIENT_SECRET"), nil)', "if err := client.Hit(r); err != nil {"]
    if choice == 9:
        return ["const client = prismic.createClient('acme-shop')", f"const page = await client.getByUID('page', 'home') // ref {rand(rng, ALNUM, 16)}"]
    if choice == 10:
        return ["# .env.local", "HYGRAPH_ENDPOINT=https://eu-central-1.cdn.hygraph.com/content/ck8sn5tnf01gc01z89dbc7s0o/master", "HYGRAPH_TOKEN="]
    if choice == 11:
        return ["$ nhost up", "✔ Postgres is ready", f"✔ GraphQL: https://local.hasura.local.nhost.run/v1 (migrations {rand(rng, HEX, 8)})"]
    if choice == 12:
        return ["UPSTASH_REDIS_REST_URL=https://eu1-rapid-fox-31337.upstash.io", "UPSTASH_REDIS_REST_TOKEN=${{ secrets.UPSTASH_TOKEN }}"]
    if choice == 13:
        return ["from flagsmith import Flagsmith", "", 'flagsmith = Flagsmith(environment_key=os.environ["FLAGSMITH_KEY"])']
    if choice == 14:
        return ["$ curl -s https://unleash.acme.io/health", '{"health":"GOOD"}', f"x-unleash-instance-id: {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 15:
        return ['{"features":[{"id":"new-checkout","defaultValue":"false","revision":{"version":' + str(rng.randint(1, 99)) + ',"comment":"","date":"2026-12-07T08:12:44Z"}}]}']
    if choice == 16:
        return ["import configcatclient", "", "client = configcatclient.get(os.environ['CONFIGCAT_SDK_KEY'])", "enabled = client.get_value('newCheckout', False)"]
    if choice == 17:
        return ["# statsig.env", "STATSIG_ENVIRONMENT=production", "STATSIG_SERVER_SECRET=<server secret from the console>"]
    if choice == 18:
        return ["SplitClientConfig config = SplitClientConfig.builder().setBlockUntilReadyTimeout(10000).build();",
                'SplitFactory factory = SplitFactoryBuilder.build(System.getenv("SPLIT_API_KEY"), config);']
    if choice == 19:
        return ["  op-connect-sync:", "    image: 1password/connect-sync:latest", "    volumes:", "      - ./1password-credentials.json:/home/opuser/.op/1password-credentials.json"]
    if choice == 20:
        return ["$ zrok share public localhost:8080", f"https://{rand(rng, string.ascii_lowercase + string.digits, 12)}.share.zrok.io"]
    if choice == 21:
        return ["$ inlets-pro tcp client --url wss://203.0.113.7:8123 \\", "    --token-file ./token.txt \\", "    --upstream localhost --ports 2222"]
    if choice == 22:
        return ["$ expose share http://shop.test", f"Public HTTP: https://{rand(rng, string.ascii_lowercase, 10)}.sharedwithexpose.com"]
    if choice == 23:
        return ["[sinks.axiom]", 'type = "axiom"', 'inputs = ["docker_logs"]', 'dataset = "shop"', 'token = "${AXIOM_TOKEN}"']
    if choice == 24:
        return ["$ tb push datasources/events.datasource", f"** Processing datasources/events.datasource", f"** Data Source 'events' created (id t_{rand(rng, HEX, 32)})"]
    if choice == 25:
        return ["[sinks.better_stack]", 'type = "http"', 'uri = "https://in.logs.betterstack.com/"', 'auth.strategy = "bearer"', 'auth.token = "${BETTER_STACK_TOKEN}"']
    if choice == 26:
        return ["  quickwit:", "    image: quickwit/quickwit", "    environment:", "      QW_METASTORE_URI: postgres://quickwit@pg:5432/quickwit"]
    if choice == 27:
        return ["$ ./zincsearch", '{"level":"info","time":"2026-12-07T08:12:44Z","message":"Starting Zinc 0.4.10"}',
                f'{{"level":"info","message":"index created","index":"shop-{rand(rng, HEX, 8)}"}}']
    if choice == 28:
        return ["import pymssql", "", 'conn = pymssql.connect(server="db.acme.io", user="shop", password=os.environ["MSSQL_PASSWORD"], database="shop")']
    return ["# group_vars/web.yml", "ansible_user: deploy", "ansible_become_password: \"{{ vault_become_password }}\"", "nginx_worker_processes: 4"]


def thirty_ninth_secret_case(rng):
    """The thirty-ninth pool (`--pool thirty-ninth`): written after the thirty-eighth pool's fixes,
    before any rule was run on it, from places none of the thirty-eight earlier pools has:
    WooCommerce's `ck_…:cs_…`, BigCommerce's `X-Auth-Token`, Webflow's bearer token, Coolify's
    `context add`, Portainer's `ptr_` key, Sourcegraph's `SRC_ACCESS_TOKEN`, a Codeberg token in a
    clone address, Bamboo's personal token, Travis' `Authorization: token`, AppVeyor's `v2.` token,
    Codefresh's `--api-key`, Spacelift's key secret, env0's secret, Atlantis' webhook secret, an
    rclone remote for Wasabi, Storj's access grant, Filebase, Plivo's `RestClient(…)`, Sinch's
    `curl -u`, MessageBird's `live_` key, SparkPost, Customer.io's named arguments, Braze's UUID
    key, Klaviyo's `pk_`, Intercom's `dG9rOj…`, Freshdesk's key as curl's user, Zoho's refresh
    token; and the passwords of Drupal's `settings.php`, Magento's `setup:install`, CapRover's
    `deploy`, CockroachDB's `--url`, TiDB's `mysql -p'…'`, Redash's database address and
    Fluentd's `shared_key`."""
    user, host = login_parts(rng)
    choice = rng.randrange(34)
    pw = bare_password(rng, also="?=#;,")
    if choice == 0:
        return "password", ["$databases['default']['default'] = [", "  'database' => 'drupal',", f"  'username' => '{user}',",
                            f"  'password' => '{pw}',", "  'host' => 'db.acme.io',", "  'driver' => 'mysql',", "];"], [pw]
    if choice == 1:
        return "password", ["$ bin/magento setup:install --base-url=https://shop.acme.io/ \\", f"    --db-host=db.acme.io --db-name=magento --db-user={user} --db-password={pw} \\",
                            "    --admin-firstname=Ana --admin-lastname=Berg --admin-email=ana@acme.io"], [pw]
    if choice == 2:
        v = "cs_" + rand(rng, HEX, 40)
        return "api_key", [f"$ curl https://shop.acme.io/wp-json/wc/v3/orders -u ck_{rand(rng, HEX, 40)}:{v}", '[{"id":727,"status":"processing"}]'], [v]
    if choice == 3:
        v = rand(rng, string.ascii_lowercase + string.digits, 31)
        return "api_key", ["$ curl https://api.bigcommerce.com/stores/x9k2m4/v3/catalog/products \\", f'    -H "X-Auth-Token: {v}" \\', '    -H "Accept: application/json"'], [v]
    if choice == 4:
        v = rand(rng, HEX, 64)
        return "api_key", ["const webflow = new WebflowClient({", f'  accessToken: "{v}",', "});"], [v]
    if choice == 5:
        v = f"{rng.randint(1, 99)}|{rand(rng, ALNUM, 48)}"
        return "api_key", [f"$ coolify context add prod https://coolify.acme.io {v}", "Context 'prod' added."], [v]
    if choice == 6:
        v = "ptr_" + base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
        return "api_key", ["$ curl -s https://portainer.acme.io/api/endpoints \\", f'    -H "X-API-Key: {v}" | jq ".[].Name"', '"local"'], [v]
    if choice == 7:
        v = f"sgp_{rand(rng, HEX, 16)}_{rand(rng, HEX, 40)}"
        return "api_key", ["$ export SRC_ENDPOINT=https://sourcegraph.acme.io", f"$ export SRC_ACCESS_TOKEN={v}", "$ src search 'repo:shop TODO'"], [v]
    if choice == 8:
        v = rand(rng, HEX, 40)
        return "api_key", [f"$ git clone https://{user}:{v}@codeberg.org/{user}/shop.git", "Cloning into 'shop'..."], [v]
    if choice == 9:
        v = base64.b64encode(rng.randbytes(33)).decode()
        return "api_key", ["$ curl https://bamboo.acme.io/rest/api/latest/plan \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 10:
        v = rand(rng, ALNUM + "-", 22)
        return "api_key", ["$ curl -H \"Travis-API-Version: 3\" \\", f'    -H "Authorization: token {v}" \\', "    https://api.travis-ci.com/repo/acme%2Fshop/builds"], [v]
    if choice == 11:
        v = "v2." + rand(rng, string.ascii_lowercase + string.digits, 20)
        return "api_key", ["# appveyor.yml", "environment:", f"  APPVEYOR_API_TOKEN: {v}", "build_script:", "  - ps: .\\build.ps1"], [v]
    if choice == 12:
        v = f"{rand(rng, HEX, 24)}.{rand(rng, HEX, 32)}"
        return "api_key", [f"$ codefresh auth create-context acme --api-key {v}", "Context: acme was added"], [v]
    if choice == 13:
        v = rand(rng, HEX, 64)
        return "api_key", ["# .envrc", "export SPACELIFT_API_KEY_ENDPOINT=https://acme.app.spacelift.io", f"export SPACELIFT_API_KEY_ID=01{rand(rng, string.ascii_uppercase + string.digits, 24)}",
                           f"export SPACELIFT_API_KEY_SECRET={v}"], [v]
    if choice == 14:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["    steps:", "      - uses: env0/env0-deploy@v1", "        env:", f"          ENV0_API_KEY: {rand(rng, string.ascii_lowercase + string.digits, 16)}",
                           f"          ENV0_API_SECRET: {v}"], [v]
    if choice == 15:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ atlantis server --atlantis-url https://atlantis.acme.io --gh-user {user} \\", f"    --gh-webhook-secret={v} --repo-allowlist='github.com/acme/*'"], [v]
    if choice == 16:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["[wasabi]", "type = s3", "provider = Wasabi", f"access_key_id = {rand(rng, string.ascii_uppercase + string.digits, 20)}",
                           f"secret_access_key = {v}", "endpoint = s3.eu-central-1.wasabisys.com"], [v]
    if choice == 17:
        v = "1" + rand(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 180)
        return "api_key", [f"$ uplink access import main {v}", "Imported access \"main\" to \"/home/ana/.config/storj/uplink/access.json\""], [v]
    if choice == 18:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["# filebase.env", f"FILEBASE_KEY={rand(rng, string.ascii_uppercase + string.digits, 20)}", f"FILEBASE_SECRET={v}", "FILEBASE_BUCKET=shop-assets"], [v]
    if choice == 19:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["import plivo", "", f"client = plivo.RestClient('MA{rand(rng, string.ascii_uppercase + string.digits, 18)}', '{v}')"], [v]
    if choice == 20:
        v = rand(rng, ALNUM + "-_", 26)
        return "api_key", [f"$ curl -u {uuid.UUID(bytes=rng.randbytes(16))}:{v} \\", "    https://sms.api.sinch.com/xms/v1/batches -d @batch.json"], [v]
    if choice == 21:
        v = "live_" + rand(rng, ALNUM, 25)
        return "api_key", ["const messagebird = require('messagebird')", f"  .initClient('{v}');"], [v]
    if choice == 22:
        v = rand(rng, HEX, 40)
        return "api_key", ["# sparkpost.env", f"SPARKPOST_API_KEY={v}", "SPARKPOST_SENDING_DOMAIN=mail.acme.io"], [v]
    if choice == 23:
        v = rand(rng, HEX, 20)
        return "api_key", ["from customerio import CustomerIO", "", f'cio = CustomerIO(site_id="{rand(rng, HEX, 20)}", api_key="{v}")'], [v]
    if choice == 24:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ curl -X POST https://rest.fra-01.braze.eu/users/track \\", f'    -H "Authorization: Bearer {v}" \\', "    -d @events.json"], [v]
    if choice == 25:
        v = "pk_" + rand(rng, HEX, 34)
        return "api_key", ["from klaviyo_api import KlaviyoAPI", "", f'klaviyo = KlaviyoAPI("{v}", max_delay=60, max_retries=3)'], [v]
    if choice == 26:
        v = "dG9rOj" + base64.b64encode(rng.randbytes(45)).decode()
        return "api_key", ["# intercom.env", f"INTERCOM_ACCESS_TOKEN={v}"], [v]
    if choice == 27:
        v = rand(rng, ALNUM, 20)
        return "api_key", [f"$ curl -u {v}:X -H \"Content-Type: application/json\" https://acme.freshdesk.com/api/v2/tickets", '[{"id":1042,"subject":"Refund"}]'], [v]
    if choice == 28:
        v = f"1000.{rand(rng, HEX, 32)}.{rand(rng, HEX, 32)}"
        return "api_key", ["$ curl -X POST https://accounts.zoho.eu/oauth/v2/token \\", f"    -d refresh_token={v} \\", "    -d grant_type=refresh_token"], [v]
    if choice == 29:
        return "password", [f"$ cockroach sql --url \"postgresql://{user}:{pw}@crdb.acme.io:26257/shop?sslmode=verify-full\"", "#", "# Welcome to the CockroachDB SQL shell."], [pw]
    if choice == 30:
        return "password", [f"$ mysql --comments -u '{user}' -h tidb.acme.io -P 4000 -p'{pw}'", "Welcome to the MySQL monitor.  Commands end with ; or \\g."], [pw]
    if choice == 31:
        return "password", ["# redash/env", "REDASH_LOG_LEVEL=INFO", f"REDASH_DATABASE_URL=postgresql://redash:{pw}@postgres/redash", "REDASH_REDIS_URL=redis://redis:6379/0"], [pw]
    if choice == 32:
        return "password", [f"$ caprover deploy --caproverUrl https://captain.acme.io --caproverPassword '{pw}' --caproverApp shop", "Deploying shop to https://captain.acme.io"], [pw]
    return "password", ["<source>", "  @type forward", "  port 24224", "  <security>", "    self_hostname aggregator.acme.io", f"    shared_key {pw}", "  </security>", "</source>"], [pw]


def thirty_ninth_negative_case(rng):
    choice = rng.randrange(30)
    if choice == 0:
        return ["$databases['default']['default'] = [", "  'database' => 'drupal',", "  'username' => getenv('DB_USER'),", "  'password' => getenv('DB_PASSWORD'),", "];"]
    if choice == 1:
        return ["$ bin/magento setup:upgrade", "Cache cleared successfully", f"Module 'Magento_Store': Running schema recurring... ({rng.randint(100, 999)} ms)"]
    if choice == 2:
        return ["$ curl -s https://shop.acme.io/wp-json/wc/v3/orders/727 | jq .order_key", f'"wc_order_{rand(rng, ALNUM, 13)}"']
    if choice == 3:
        return ['{"data":[{"id":' + str(rng.randint(100, 999)) + ',"name":"Mug","sku":"MUG-' + rand(rng, string.ascii_uppercase + string.digits, 6) + '","price":12.5}]}']
    if choice == 4:
        return ["const webflow = new WebflowClient({", "  accessToken: process.env.WEBFLOW_TOKEN,", "});", f"const site = await webflow.sites.get('{rand(rng, HEX, 24)}');"]
    if choice == 5:
        return ["$ coolify context list", "NAME   URL                          DEFAULT", "prod   https://coolify.acme.io       true"]
    if choice == 6:
        return ['$ curl -s https://portainer.acme.io/api/status | jq .', '{"Version":"2.21.4","InstanceID":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '"}']
    if choice == 7:
        return ["$ src search 'repo:shop TODO'", f"github.com/acme/shop › src/cart.ts ({rng.randint(2, 9)} matches)", f"  commit {rand(rng, HEX, 40)}"]
    if choice == 8:
        return ["$ git clone https://codeberg.org/acme/shop.git", "Cloning into 'shop'...", f"Receiving objects: 100% ({rng.randint(100, 9999)}/{rng.randint(100, 9999)}), done."]
    if choice == 9:
        return ["$ curl -s https://bamboo.acme.io/rest/api/latest/plan | jq '.plans.plan[0].key'", f'"SHOP-{rand(rng, string.ascii_uppercase, 4)}"']
    if choice == 10:
        return ["$ curl -H \"Travis-API-Version: 3\" https://api.travis-ci.com/repo/acme%2Fshop/builds | jq '.builds[0].id'", str(rng.randint(10**8, 10**9))]
    if choice == 11:
        return ["# appveyor.yml", "environment:", "  APPVEYOR_API_TOKEN:", "    secure: " + base64.b64encode(rng.randbytes(24)).decode(), "build_script:"]
    if choice == 12:
        return ["$ codefresh get builds --limit 1", f"BUILD ID                  PIPELINE   STATUS", f"{rand(rng, HEX, 24)}  shop/ci    success"]
    if choice == 13:
        return ["# .envrc", "export SPACELIFT_API_KEY_ENDPOINT=https://acme.app.spacelift.io", "export SPACELIFT_API_KEY_SECRET=$(pass show spacelift/secret)"]
    if choice == 14:
        return ["    steps:", "      - uses: env0/env0-deploy@v1", "        env:", "          ENV0_API_KEY: ${{ secrets.ENV0_API_KEY }}", "          ENV0_API_SECRET: ${{ secrets.ENV0_API_SECRET }}"]
    if choice == 15:
        return ["$ atlantis server --atlantis-url https://atlantis.acme.io --gh-webhook-secret-file /run/secrets/webhook", f"{{\"level\":\"info\",\"ts\":\"2026-12-07T08:12:44Z\",\"msg\":\"Atlantis started - listening on port 4141\"}}"]
    if choice == 16:
        return ["[wasabi]", "type = s3", "provider = Wasabi", "env_auth = true", "endpoint = s3.eu-central-1.wasabisys.com"]
    if choice == 17:
        return ["$ uplink ls sj://shop-backups", f"OBJ 2026-12-07 08:12:44 {rng.randint(1000, 99999)} db-{rand(rng, HEX, 8)}.sql.gz"]
    if choice == 18:
        return ["# filebase.env", "FILEBASE_KEY=", "FILEBASE_SECRET=", "FILEBASE_BUCKET=shop-assets"]
    if choice == 19:
        return ["import plivo", "", "client = plivo.RestClient(os.environ['PLIVO_AUTH_ID'], os.environ['PLIVO_AUTH_TOKEN'])"]
    if choice == 20:
        return ['{"id":"01' + rand(rng, string.ascii_uppercase + string.digits, 24) + '","to":["+4915112345678"],"from":"ACME","canceled":false}']
    if choice == 21:
        return ["const messagebird = require('messagebird')", "  .initClient(process.env.MESSAGEBIRD_KEY);"]
    if choice == 22:
        return ['{"results":{"total_rejected_recipients":0,"total_accepted_recipients":1,"id":"' + str(rng.randint(10**17, 10**18 - 1)) + '"}}']
    if choice == 23:
        return ["from customerio import CustomerIO", "", 'cio = CustomerIO(site_id=os.environ["CIO_SITE_ID"], api_key=os.environ["CIO_API_KEY"])']
    if choice == 24:
        return ['{"message":"success","attributes_processed":1,"events_processed":' + str(rng.randint(1, 9)) + '}', f"dispatch_id: {rand(rng, HEX, 32)}"]
    if choice == 25:
        return ["from klaviyo_api import KlaviyoAPI", "", 'klaviyo = KlaviyoAPI(os.environ["KLAVIYO_KEY"], max_delay=60, max_retries=3)']
    if choice == 26:
        return ['<script>window.intercomSettings = { app_id: "' + rand(rng, string.ascii_lowercase + string.digits, 8) + '" };</script>']
    if choice == 27:
        return ["$ curl -s https://acme.freshdesk.com/api/v2/tickets/1042 | jq .status", "2"]
    if choice == 28:
        return ['{"access_token":"<redacted>","api_domain":"https://www.zohoapis.eu","token_type":"Bearer","expires_in":3600}']
    return ["<source>", "  @type forward", "  port 24224", "  <security>", "    self_hostname aggregator.acme.io", "    shared_key \"#{ENV['FLUENT_SHARED_KEY']}\"", "  </security>", "</source>"]


def fortieth_secret_case(rng):
    """The fortieth pool (`--pool fortieth`): written after the thirty-ninth pool's fixes, before
    any rule was run on it, from places none of the thirty-nine earlier pools has: ClickUp's `pk_`
    key, Miro's access token, Bitwarden Secrets Manager's `BWS_ACCESS_TOKEN`, Mezmo's ingestion
    key, Papertrail's token header, Sumo Logic's access key, Fireworks' `fw_` key, Anyscale's
    `esecret_`, Comet's `Experiment(api_key=…)`, Neptune's base64 token, DVC's `remote modify`,
    Strava's client secret, GoCardless' `live_` token, Polygon's `apiKey=` query, Vonage's
    `auth set`, ConvertKit's `api_secret=`, Pipedrive's `api_token=`, Typeform's `tfp_`, Jotform's
    `APIKEY` header, Calendly's JWT, PandaDoc's `API-Key`, Xero's client secret, Harvest's `.pt.`
    token, Toggl's `-u KEY:api_token`, Clockify's `X-Api-Key`, Jira's `ATATT` token, YouTrack's
    `perm:` token, Prefect's `pnu_`, Dagster's agent token, Riot's `RGAPI-`, TrueNAS' `1-` key,
    Radarr's `<ApiKey>`, act_runner's registration token, DuckDB's `CREATE SECRET`, a BigQuery key
    file's private key (beside its public `private_key_id`), Battle.net's client secret; and the
    passwords of Odoo's `admin_passwd`, Minecraft's `rcon.password`, ScyllaDB's `cqlsh -p`, a Timescale address,
    ownCloud's `OC_PASS`, `saslpasswd2` fed by `echo` and Redshift's JDBC `PWD=`."""
    user, host = login_parts(rng)
    choice = rng.randrange(43)
    pw = bare_password(rng, also="?=#;,|")
    upper_digits = string.ascii_uppercase + string.digits
    if choice == 0:
        v = f"pk_{rng.randint(10**7, 10**8 - 1)}_{rand(rng, upper_digits, 32)}"
        return "api_key", [f'$ curl -H "Authorization: {v}" https://api.clickup.com/api/v2/team', '{"teams":[{"id":"9012345678","name":"Acme"}]}'], [v]
    if choice == 1:
        v = "eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_" + base64.urlsafe_b64encode(rng.randbytes(20)).decode().rstrip("=")
        return "api_key", ["from miro_api import Miro", "", f'api = Miro(access_token="{v}")', "boards = api.get_boards()"], [v]
    if choice == 2:
        v = f"0.{uuid.UUID(bytes=rng.randbytes(16))}.{rand(rng, ALNUM, 30)}:{base64.b64encode(rng.randbytes(16)).decode()}"
        return "api_key", [f"$ export BWS_ACCESS_TOKEN={v}", "$ bws secret list --output table"], [v]
    if choice == 3:
        v = rand(rng, HEX, 32)
        return "api_key", ["# /etc/logdna.env", f"MZ_INGESTION_KEY={v}", "MZ_HOST=logs.mezmo.com", "MZ_LOG_DIRS=/var/log/shop"], [v]
    if choice == 4:
        v = rand(rng, ALNUM, 20)
        return "api_key", [f'$ curl -H "X-Papertrail-Token: {v}" \\', "    'https://papertrailapp.com/api/v1/events/search.json?q=error'"], [v]
    if choice == 5:
        v = rand(rng, ALNUM, 64)
        return "api_key", [f'$ curl -u "su{rand(rng, ALNUM, 12)}:{v}" \\', "    https://api.eu.sumologic.com/api/v1/collectors"], [v]
    if choice == 6:
        v = "fw_" + rand(rng, ALNUM, 24)
        return "api_key", [f"$ export FIREWORKS_API_KEY={v}", "$ firectl list models --account-id acme"], [v]
    if choice == 7:
        v = "esecret_" + rand(rng, string.ascii_lowercase + string.digits, 26)
        return "api_key", ["client = openai.OpenAI(", '    base_url="https://api.endpoints.anyscale.com/v1",', f'    api_key="{v}",', ")"], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 25)
        return "api_key", ["from comet_ml import Experiment", "", f'experiment = Experiment(api_key="{v}", project_name="shop-ranker")'], [v]
    if choice == 9:
        payload = json.dumps({"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": str(uuid.UUID(bytes=rng.randbytes(16)))})
        v = base64.b64encode(payload.encode()).decode()
        return "api_key", ["# ~/.bashrc", f'export NEPTUNE_API_TOKEN="{v}"', 'export NEPTUNE_PROJECT="acme/shop-ranker"'], [v]
    if choice == 10:
        v = rand(rng, ALNUM + "/+", 40)
        return "api_key", ["$ dvc remote add -d storage s3://acme-dvc/shop", f"$ dvc remote modify --local storage secret_access_key {v}"], [v]
    if choice == 11:
        v = rand(rng, HEX, 40)
        return "api_key", ["$ curl -X POST https://www.strava.com/oauth/token \\", f"    -F client_id={rng.randint(10000, 199999)} -F client_secret={v} \\", f"    -F code={rand(rng, HEX, 40)} -F grant_type=authorization_code"], [v]
    if choice == 12:
        v = "live_" + rand(rng, ALNUM + "-_", 40)
        return "api_key", ["import gocardless_pro", "", f'client = gocardless_pro.Client(access_token="{v}", environment="live")'], [v]
    if choice == 13:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f'$ curl "https://api.polygon.io/v2/aggs/ticker/AAPL/prev?adjusted=true&apiKey={v}"', '{"ticker":"AAPL","queryCount":1,"resultsCount":1,"status":"OK"}'], [v]
    if choice == 14:
        v = rand(rng, ALNUM, 16)
        return "api_key", [f"$ vonage auth set --api_key={rand(rng, HEX, 8)} --api_secret={v}", "API key and secret saved"], [v]
    if choice == 15:
        v = rand(rng, ALNUM + "-_", 43)
        return "api_key", [f'$ curl "https://api.convertkit.com/v3/subscribers?api_secret={v}&from=2026-12-01"'], [v]
    if choice == 16:
        v = rand(rng, HEX, 40)
        return "api_key", [f'$ curl "https://acme.pipedrive.com/api/v1/deals?status=open&api_token={v}"', '{"success":true,"data":[{"id":42,"title":"Shop renewal"}]}'], [v]
    if choice == 17:
        v = f"tfp_{rand(rng, ALNUM, 44)}_{rand(rng, ALNUM, 14)}"
        return "api_key", ["$ curl https://api.typeform.com/forms \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 18:
        v = rand(rng, HEX, 32)
        return "api_key", [f'$ curl -H "APIKEY: {v}" https://eu-api.jotform.com/user/forms', '{"responseCode":200,"message":"success"}'], [v]
    if choice == 19:
        head = base64.urlsafe_b64encode(json.dumps({"kid": rand(rng, HEX, 64), "typ": "PAT", "alg": "ES256"}).encode()).decode().rstrip("=")
        body = base64.urlsafe_b64encode(json.dumps({"iss": "https://auth.calendly.com", "iat": rng.randint(1.7e9, 1.8e9), "jti": str(uuid.UUID(bytes=rng.randbytes(16))), "user_uuid": str(uuid.UUID(bytes=rng.randbytes(16)))}).encode()).decode().rstrip("=")
        v = f"{head}.{body}.{base64.urlsafe_b64encode(rng.randbytes(64)).decode().rstrip('=')}"
        return "api_key", ["# calendly.env", f"CALENDLY_TOKEN={v}"], [v]
    if choice == 20:
        v = rand(rng, HEX, 40)
        return "api_key", ["$ curl https://api.pandadoc.com/public/v1/documents \\", f'    -H "Authorization: API-Key {v}"'], [v]
    if choice == 21:
        v = rand(rng, ALNUM + "-_", 48)
        return "api_key", ["xero = OAuth2Token(", f'    client_id="{rand(rng, string.ascii_uppercase + string.digits, 32)}",', f'    client_secret="{v}",', ")"], [v]
    if choice == 22:
        v = f"{rng.randint(10**6, 10**7 - 1)}.pt.{rand(rng, ALNUM + '-_', 86)}"
        return "api_key", ["$ curl https://api.harvestapp.com/v2/time_entries \\", f'    -H "Harvest-Account-Id: {rng.randint(10**5, 10**6 - 1)}" \\', f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 23:
        v = rand(rng, HEX, 32)
        return "api_key", [f"$ curl -u {v}:api_token https://api.track.toggl.com/api/v9/me", '{"id":' + str(rng.randint(10**6, 10**7)) + ',"fullname":"Ana Berg"}'], [v]
    if choice == 24:
        v = base64.b64encode(rng.randbytes(36)).decode()
        return "api_key", [f'$ curl -H "X-Api-Key: {v}" \\', "    https://api.clockify.me/api/v1/workspaces"], [v]
    if choice == 25:
        v = "ATATT3xFfGF0" + rand(rng, ALNUM + "-_", 180) + "=" + rand(rng, "0123456789ABCDEF", 8)
        return "api_key", ["# ~/.config/jira-cli/.env", "JIRA_SERVER=https://acme.atlassian.net", f"JIRA_API_TOKEN={v}"], [v]
    if choice == 26:
        v = f"perm:{base64.b64encode(user.encode()).decode()}.{base64.b64encode(b'44-1').decode()}.{rand(rng, ALNUM, 30)}"
        return "api_key", ["$ curl https://acme.youtrack.cloud/api/issues?fields=idReadable,summary \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 27:
        v = "pnu_" + rand(rng, ALNUM, 36)
        return "api_key", [f"$ prefect cloud login --key {v} --workspace acme/shop", "Authenticated with Prefect Cloud! Using workspace 'acme/shop'."], [v]
    if choice == 28:
        v = rand(rng, HEX, 32)
        return "api_key", ["# dagster.yaml", "dagster_cloud_api:", f"  agent_token: agent:acme:{v}", "  deployment: prod"], [v]
    if choice == 29:
        v = f"RGAPI-{uuid.UUID(bytes=rng.randbytes(16))}"
        return "api_key", ['$ curl "https://europe.api.riotgames.com/riot/account/v1/accounts/by-riot-id/Ana/EUW" \\', f'    -H "X-Riot-Token: {v}"'], [v]
    if choice == 30:
        v = "1-" + rand(rng, ALNUM, 64)
        return "api_key", [f'$ curl -H "Authorization: Bearer {v}" \\', "    https://nas.acme.io/api/v2.0/pool"], [v]
    if choice == 31:
        v = rand(rng, HEX, 32)
        return "api_key", ["<Config>", "  <BindAddress>*</BindAddress>", "  <Port>7878</Port>", f"  <ApiKey>{v}</ApiKey>", "  <AuthenticationMethod>Forms</AuthenticationMethod>", "</Config>"], [v]
    if choice == 32:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ ./act_runner register --no-interactive --instance https://git.acme.io --token {v} --name runner-1", "INFO Runner registered successfully."], [v]
    if choice == 33:
        v = rand(rng, ALNUM + "/+", 40)
        return "api_key", ["CREATE SECRET shop_s3 (", "    TYPE S3,", f"    KEY_ID 'AKIA{rand(rng, upper_digits, 16)}',", f"    SECRET '{v}',", "    REGION 'eu-central-1'", ");"], [v]
    if choice == 34:
        # (Round 161 corrected this case: it listed the `private_key_id` as the secret, but a key's
        # id names the key and holds none of it, as round 157 decided; the key is the secret.)
        v = base64.b64encode(rng.randbytes(45)).decode()
        return "api_key", ["{", '  "type": "service_account",', '  "project_id": "shop-analytics",', f'  "private_key_id": "{rand(rng, HEX, 40)}",',
                           f'  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC{v}\\n'], [v]
    if choice == 35:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl -u {rand(rng, HEX, 32)}:{v} -d grant_type=client_credentials https://oauth.battle.net/token", '{"access_token":"<redacted>","token_type":"bearer","expires_in":86399}'], [v]
    if choice == 36:
        return "password", ["[options]", "addons_path = /opt/odoo/addons", f"admin_passwd = {pw}", "db_host = db.acme.io", f"db_user = {user}"], [pw]
    if choice == 37:
        return "password", ["# server.properties", "enable-rcon=true", f"rcon.password={pw}", "rcon.port=25575", "motd=Acme Survival"], [pw]
    if choice == 38:
        return "password", [f"$ cqlsh scylla.acme.io 9042 -u {user} -p '{pw}'", "Connected to Scylla Cluster at scylla.acme.io:9042"], [pw]
    if choice == 39:
        return "password", [f'$ psql "postgres://tsdbadmin:{pw}@ab12cd34ef.tsdb.cloud.timescale.com:34567/tsdb?sslmode=require"', "psql (16.4)", "tsdb=>"], [pw]
    if choice == 40:
        return "password", [f"$ export OC_PASS='{pw}'", f'$ sudo -E -u www-data php occ user:add --password-from-env --display-name="Ana Berg" {user}', f'The user "{user}" was created successfully'], [pw]
    if choice == 41:
        return "password", [f"$ echo '{pw}' | sudo saslpasswd2 -p -a memcached -c {user}", "$ sudo systemctl restart memcached"], [pw]
    return "password", ["jdbc:redshift://shop.ab12cd34ef.eu-central-1.redshift.amazonaws.com:5439/dev;", f"    UID={user};PWD={pw};ssl=true"], [pw]


def fortieth_negative_case(rng):
    choice = rng.randrange(32)
    if choice == 0:
        return ['$ curl -s https://api.clickup.com/api/v2/task/86c0' + rand(rng, string.ascii_lowercase + string.digits, 5) + ' | jq .status.status', '"in progress"']
    if choice == 1:
        return ["from miro_api import Miro", "", "api = Miro(access_token=os.environ['MIRO_TOKEN'])", f"board = api.get_specific_board('uXjV{rand(rng, ALNUM, 8)}=')"]
    if choice == 2:
        return ["$ bws project list --output table", "ID                                     NAME", f"{uuid.UUID(bytes=rng.randbytes(16))}   shop-prod"]
    if choice == 3:
        return ["# /etc/logdna.env", "MZ_INGESTION_KEY=${MEZMO_INGESTION_KEY}", "MZ_HOST=logs.mezmo.com"]
    if choice == 4:
        return ['{"events":[{"id":"' + str(rng.randint(10**18, 10**19 - 1)) + '","hostname":"web-1","program":"shop","message":"GET /cart 200"}]}']
    if choice == 5:
        return ['{"collectors":[{"id":' + str(rng.randint(10**8, 10**9)) + ',"name":"web-1","collectorType":"Installable","alive":true}]}']
    if choice == 6:
        return ["$ firectl list models --account-id acme", "NAME                                             STATE", "accounts/fireworks/models/llama-v3p1-70b-instruct  READY"]
    if choice == 7:
        return ["client = openai.OpenAI(", '    base_url="https://api.endpoints.anyscale.com/v1",', '    api_key=os.environ["ANYSCALE_API_KEY"],', ")"]
    if choice == 8:
        return ["COMET INFO: Experiment is live on comet.com", f"COMET INFO: https://www.comet.com/acme/shop-ranker/{rand(rng, HEX, 32)}"]
    if choice == 9:
        return ["$ neptune sync --project acme/shop-ranker", f"Synced run SHOP-{rng.randint(10, 999)}: https://app.neptune.ai/acme/shop-ranker/e/SHOP-{rng.randint(10, 999)}"]
    if choice == 10:
        return ["$ dvc status -c", "Cache and remote 'storage' are in sync.", f"$ dvc add data/orders.csv  # md5: {rand(rng, HEX, 32)}"]
    if choice == 11:
        return ['{"id":' + str(rng.randint(10**10, 10**11)) + ',"name":"Morning Ride","distance":24031.4,"moving_time":3821}']
    if choice == 12:
        return ['{"payments":[{"id":"PM' + rand(rng, string.ascii_uppercase + string.digits, 12) + '","amount":1500,"currency":"EUR","status":"confirmed"}]}']
    if choice == 13:
        return ['{"ticker":"AAPL","queryCount":1,"resultsCount":1,"status":"OK","request_id":"' + rand(rng, HEX, 32) + '"}']
    if choice == 14:
        return ['{"messages":[{"to":"4915112345678","message-id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","status":"0"}]}']
    if choice == 15:
        return ['$ curl "https://api.convertkit.com/v3/forms?api_key=$CONVERTKIT_API_KEY"', '{"forms":[{"id":' + str(rng.randint(10**6, 10**7)) + ',"name":"Newsletter"}]}']
    if choice == 16:
        return ['{"success":true,"data":[{"id":' + str(rng.randint(1, 999)) + ',"title":"Shop renewal","value":1200,"currency":"EUR"}]}']
    if choice == 17:
        return [f"Share your form: https://form.typeform.com/to/{rand(rng, ALNUM, 8)}", f"Responses: {rng.randint(1, 400)}"]
    if choice == 18:
        return ['{"responseCode":200,"content":[{"id":"' + str(rng.randint(10**18, 10**19 - 1)) + '","form_id":"' + str(rng.randint(10**14, 10**15)) + '"}]}']
    if choice == 19:
        return ['{"resource":{"uri":"https://api.calendly.com/scheduled_events/' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","status":"active"}}']
    if choice == 20:
        return [f"https://app.pandadoc.com/a/#/documents/{rand(rng, ALNUM, 22)}", "Status: document.completed"]
    if choice == 21:
        return ['{"Invoices":[{"InvoiceID":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","InvoiceNumber":"INV-' + str(rng.randint(1000, 9999)) + '","Total":1200.00}]}']
    if choice == 22:
        return ['{"time_entries":[{"id":' + str(rng.randint(10**9, 10**10)) + ',"spent_date":"2026-12-07","hours":1.5,"notes":"Checkout review"}]}']
    if choice == 23:
        return ['{"id":' + str(rng.randint(10**6, 10**7)) + ',"fullname":"Ana Berg","default_workspace_id":' + str(rng.randint(10**6, 10**7)) + '}']
    if choice == 24:
        return ['[{"id":"' + rand(rng, HEX, 24) + '","name":"Acme","hourlyRate":{"amount":9000,"currency":"EUR"}}]']
    if choice == 25:
        return [f"$ git commit -m \"SHOP-{rng.randint(100, 9999)} #done fix the cart total\"", f"[main {rand(rng, HEX, 7)}] SHOP fix the cart total"]
    if choice == 26:
        return ["$ prefect flow-run ls --limit 1", "ID                                    FLOW     NAME            STATE", f"{uuid.UUID(bytes=rng.randbytes(16))}  nightly  crimson-panda   COMPLETED"]
    if choice == 27:
        return ['{"puuid":"' + base64.urlsafe_b64encode(rng.randbytes(58)).decode().rstrip("=")[:78] + '","gameName":"Ana","tagLine":"EUW"}']
    if choice == 28:
        return ["<Config>", "  <BindAddress>*</BindAddress>", "  <Port>7878</Port>", "  <UrlBase></UrlBase>", "  <AuthenticationMethod>Forms</AuthenticationMethod>", "</Config>"]
    if choice == 29:
        return ["[options]", "addons_path = /opt/odoo/addons", "admin_passwd = False", "db_host = False", "db_port = False"]
    if choice == 30:
        return ["CREATE SECRET shop_s3 (", "    TYPE S3,", "    PROVIDER credential_chain,", "    REGION 'eu-central-1'", ");"]
    return [f"Job ID: bquxjob_{rand(rng, HEX, 8)}_{rand(rng, HEX, 12)}", f"Bytes processed: {rng.randint(1, 900)} MB", "Rows: 1,204"]


def forty_first_secret_case(rng):
    """The forty-first pool (`--pool forty-first`): written after the fortieth pool's fixes, before
    any rule was run on it, from places none of the forty earlier pools has: NocoDB's `xc-token`,
    Plane's `plane_api_` key, Vikunja's `JWTSECRET`, Open WebUI's `WEBUI_SECRET_KEY`, LiteLLM's
    `master_key`, Shlink's UUID key, Coder's session token, Chatwoot's `api_access_token`, Kimai's
    `X-AUTH-TOKEN`, Pushbullet's `o.` token, Dify's `app-` key, LINE's channel access token, Viber's
    `X-Viber-Auth-Token`, Spotify's client secret, Steam's Web API `key=`, itch.io's
    `BUTLER_API_KEY`, ToolJet's `LOCKBOX_MASTER_KEY`, YOURLS' `signature=`, Overseerr's `X-Api-Key`,
    Appsmith's encryption password and salt, Budibase's key header, a Zilliz token, Chroma's
    credentials, dbt Cloud's `dbtc_`, Fivetran's `curl -u KEY:SECRET`, `looker.ini`, Tableau's
    `--token-value`, Asana's `2/…:…` token, Todoist's key as a bare argument, Coda's UUID token,
    Zoom's client secret, Dropbox Sign's key as curl's user, Box's `clientSecret`, Porkbun's
    `secretapikey`, Namecheap's `ApiKey=`, Hetzner DNS' `Auth-API-Token`, ZeroTier's
    `authtoken.secret` printed alone, an LND macaroon header, an Alchemy key in an address's path;
    and the passwords of Langflow's superuser, Lemmy's `admin_password`, `xo-cli register` (a bare
    argument), VictoriaMetrics' `-httpAuth.password=`, `couchbase-cli --password`, Kibana's
    `elasticsearch.password` and an Elixir repo's `password:`."""
    user, host = login_parts(rng)
    choice = rng.randrange(46)
    pw = bare_password(rng, also="?=#;,|")
    lower_digits = string.ascii_lowercase + string.digits
    if choice == 0:
        v = rand(rng, ALNUM + "-_", 40)
        return "api_key", ['$ curl "https://nocodb.acme.io/api/v2/tables/' + rand(rng, string.ascii_lowercase + string.digits, 15) + '/records?limit=25" \\', f'    -H "xc-token: {v}"'], [v]
    if choice == 1:
        v = "plane_api_" + rand(rng, HEX, 32)
        return "api_key", ["$ curl https://api.plane.so/api/v1/workspaces/acme/projects/ \\", f'    -H "X-API-Key: {v}"'], [v]
    if choice == 2:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["  vikunja:", "    image: vikunja/vikunja", "    environment:", "      VIKUNJA_SERVICE_PUBLICURL: https://todo.acme.io", f"      VIKUNJA_SERVICE_JWTSECRET: {v}", "      VIKUNJA_DATABASE_TYPE: sqlite"], [v]
    if choice == 3:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["$ docker run -d -p 3000:8080 \\", f"    -e WEBUI_SECRET_KEY={v} \\", "    -v open-webui:/app/backend/data --name open-webui ghcr.io/open-webui/open-webui:main"], [v]
    if choice == 4:
        v = "sk-" + rand(rng, ALNUM, 22)
        return "api_key", ["# litellm config.yaml", "model_list:", "  - model_name: gpt-4o", "    litellm_params: {model: openai/gpt-4o, api_key: os.environ/OPENAI_API_KEY}", "general_settings:", f"  master_key: {v}"], [v]
    if choice == 5:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", ["$ curl -X POST https://s.acme.io/rest/v3/short-urls \\", f"    -H 'X-Api-Key: {v}' \\", """    -d '{"longUrl": "https://acme.io/winter-sale"}'"""], [v]
    if choice == 6:
        v = f"{rand(rng, ALNUM, 10)}-{rand(rng, ALNUM, 22)}"
        return "api_key", [f"$ export CODER_SESSION_TOKEN={v}", "$ coder list", "WORKSPACE  TEMPLATE  STATUS   HEALTHY", "ana/dev    docker    Started  true"], [v]
    if choice == 7:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["$ curl https://chat.acme.io/api/v1/accounts/1/conversations \\", f'    -H "api_access_token: {v}"'], [v]
    if choice == 8:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ curl https://time.acme.io/api/timesheets/active \\", f'    -H "X-AUTH-USER: {user}" -H "X-AUTH-TOKEN: {v}"'], [v]
    if choice == 9:
        v = "o." + rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl --header 'Access-Token: {v}' \\", "    https://api.pushbullet.com/v2/users/me"], [v]
    if choice == 10:
        v = "app-" + rand(rng, ALNUM, 24)
        return "api_key", ["$ curl -X POST 'https://api.dify.ai/v1/chat-messages' \\", f"    --header 'Authorization: Bearer {v}' \\", """    --data-raw '{"query": "What is our refund policy?", "user": "ana"}'"""], [v]
    if choice == 11:
        v = base64.b64encode(rng.randbytes(129)).decode()
        return "api_key", ["# line-bot/.env", f"LINE_CHANNEL_SECRET={rand(rng, HEX, 32)}", f"LINE_CHANNEL_ACCESS_TOKEN={v}"], [v]
    if choice == 12:
        v = f"{rand(rng, HEX, 16)}-{rand(rng, HEX, 16)}-{rand(rng, HEX, 16)}"
        return "api_key", ["$ curl -X POST https://chatapi.viber.com/pa/set_webhook \\", f'    -H "X-Viber-Auth-Token: {v}" \\', """    -d '{"url":"https://bot.acme.io/viber"}'"""], [v]
    if choice == 13:
        v = rand(rng, HEX, 32)
        return "api_key", ["from spotipy.oauth2 import SpotifyClientCredentials", "", "auth = SpotifyClientCredentials(", f'    client_id="{rand(rng, HEX, 32)}",', f'    client_secret="{v}")'], [v]
    if choice == 14:
        v = rand(rng, "0123456789ABCDEF", 32)
        return "api_key", [f'$ curl "https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key={v}&steamids=7656119{rng.randint(10**9, 10**10 - 1)}"'], [v]
    if choice == 15:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f"$ BUTLER_API_KEY={v} butler push build/ acme/forest-game:linux", "∙ For channel `linux`: last build is 14, downloading its signature"], [v]
    if choice == 16:
        v = rand(rng, HEX, 64)
        return "api_key", ["# tooljet/.env", "TOOLJET_HOST=https://apps.acme.io", f"LOCKBOX_MASTER_KEY={v}", f"SECRET_KEY_BASE={rand(rng, HEX, 128)}"], [v]
    if choice == 17:
        v = rand(rng, HEX, 10)
        return "api_key", [f'$ curl "https://s.acme.io/yourls-api.php?signature={v}&action=shorturl&format=json&url=https://acme.io/sale"', '{"status":"success","shorturl":"https://s.acme.io/sale"}'], [v]
    if choice == 18:
        v = base64.b64encode(f"{rng.randint(1.6e12, 1.8e12)}{uuid.UUID(bytes=rng.randbytes(16))}".encode()).decode()
        return "api_key", ["$ curl https://requests.acme.io/api/v1/request?take=20 \\", f"    -H 'X-Api-Key: {v}'"], [v]
    if choice == 19:
        v = rand(rng, ALNUM, 32)
        w = rand(rng, ALNUM, 32)
        return "api_key", ["# appsmith/stacks/configuration/docker.env", f"APPSMITH_ENCRYPTION_PASSWORD={v}", f"APPSMITH_ENCRYPTION_SALT={w}", "APPSMITH_DISABLE_TELEMETRY=true"], [v, w]
    if choice == 20:
        v = rand(rng, HEX, 32) + "-" + rand(rng, HEX, 96)
        return "api_key", ["$ curl https://budibase.acme.io/api/public/v1/applications/search \\", f"    -H 'x-budibase-api-key: {v}' \\", """    -d '{"name": "orders"}'"""], [v]
    if choice == 21:
        v = rand(rng, HEX, 104)
        return "api_key", ["from pymilvus import MilvusClient", "", "client = MilvusClient(", '    uri="https://in03-' + rand(rng, HEX, 15) + '.serverless.gcp-us-west1.cloud.zilliz.com",', f'    token="{v}")'], [v]
    if choice == 22:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["# chroma.env", 'CHROMA_SERVER_AUTHN_PROVIDER="chromadb.auth.token_authn.TokenAuthenticationServerProvider"', f'CHROMA_SERVER_AUTHN_CREDENTIALS="{v}"'], [v]
    if choice == 23:
        v = "dbtc_" + rand(rng, ALNUM + "-_", 54)
        return "api_key", [f"$ export DBT_CLOUD_API_TOKEN={v}", "$ dbt-cloud job run --job-id 4321"], [v]
    if choice == 24:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl -u {rand(rng, ALNUM, 16)}:{v} https://api.fivetran.com/v1/groups", '{"code":"Success","data":{"items":[{"id":"decent_dropsy","name":"Warehouse"}]}}'], [v]
    if choice == 25:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["# looker.ini", "[Looker]", "base_url=https://acme.cloud.looker.com", f"client_id={rand(rng, ALNUM, 20)}", f"client_secret={v}", "verify_ssl=True"], [v]
    if choice == 26:
        v = f"{base64.b64encode(rng.randbytes(16)).decode()}:{rand(rng, ALNUM, 32)}"
        return "api_key", ["$ tabcmd login -s https://prod-uk-a.online.tableau.com -t acme \\", f'    --token-name ci --token-value "{v}"'], [v]
    if choice == 27:
        v = f"2/{rng.randint(10**15, 10**16 - 1)}/{rng.randint(10**15, 10**16 - 1)}:{rand(rng, HEX, 32)}"
        return "api_key", ["$ curl https://app.asana.com/api/1.0/users/me \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 28:
        v = rand(rng, HEX, 40)
        return "api_key", ["from todoist_api_python.api import TodoistAPI", "", f'api = TodoistAPI("{v}")', 'api.add_task(content="Renew the shop certificate", due_string="tomorrow")'], [v]
    if choice == 29:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ curl -H 'Authorization: Bearer {v}' \\", "    https://coda.io/apis/v1/docs"], [v]
    if choice == 30:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["# zoom.env", f"ZOOM_ACCOUNT_ID={rand(rng, ALNUM + '-_', 22)}", f"ZOOM_CLIENT_ID={rand(rng, ALNUM, 22)}", f"ZOOM_CLIENT_SECRET={v}"], [v]
    if choice == 31:
        v = rand(rng, HEX, 64)
        return "api_key", [f"$ curl -u '{v}:' \\", "    'https://api.hellosign.com/v3/signature_request/list?page=1'"], [v]
    if choice == 32:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["{", '  "boxAppSettings": {', f'    "clientID": "{rand(rng, lower_digits, 32)}",', f'    "clientSecret": "{v}"', "  },", f'  "enterpriseID": "{rng.randint(10**8, 10**9)}"', "}"], [v]
    if choice == 33:
        v = "sk1_" + rand(rng, HEX, 64)
        return "api_key", ["$ curl -X POST https://api.porkbun.com/api/json/v3/ping \\", f"""    -d '{{"secretapikey":"{v}","apikey":"pk1_{rand(rng, HEX, 64)}"}}'"""], [v]
    if choice == 34:
        v = rand(rng, HEX, 32)
        return "api_key", [f"https://api.namecheap.com/xml.response?ApiUser=acme&ApiKey={v}&UserName=acme&Command=namecheap.domains.getList&ClientIp=203.0.113.7"], [v]
    if choice == 35:
        v = rand(rng, ALNUM, 32)
        return "api_key", ['$ curl "https://dns.hetzner.com/api/v1/zones" \\', f"    -H 'Auth-API-Token: {v}'"], [v]
    if choice == 36:
        v = rand(rng, lower_digits, 24)
        return "api_key", ["$ sudo cat /var/lib/zerotier-one/authtoken.secret", v, "$ zerotier-cli info", "200 info " + rand(rng, HEX, 10) + " 1.14.2 ONLINE"], [v]
    if choice == 37:
        v = "0201036c6e6402f801" + rand(rng, HEX, 180)
        return "api_key", ["$ curl --cacert ~/.lnd/tls.cert \\", f'    -H "Grpc-Metadata-macaroon: {v}" \\', "    https://127.0.0.1:8080/v1/getinfo"], [v]
    if choice == 38:
        v = rand(rng, ALNUM + "-_", 32)
        return "api_key", ['import { ethers } from "ethers";', "", f'const provider = new ethers.JsonRpcProvider("https://eth-mainnet.g.alchemy.com/v2/{v}");'], [v]
    if choice == 39:
        return "password", ["# langflow/.env", "LANGFLOW_AUTO_LOGIN=False", "LANGFLOW_SUPERUSER=admin", f"LANGFLOW_SUPERUSER_PASSWORD={pw}", "LANGFLOW_NEW_USER_IS_ACTIVE=False"], [pw]
    if choice == 40:
        return "password", ["# lemmy.hjson", "{", "  setup: {", '    admin_username: "ana"', f'    admin_password: "{pw}"', '    site_name: "Acme Talk"', "  }", "}"], [pw]
    if choice == 41:
        return "password", [f"$ xo-cli register https://xo.acme.io {user} {pw}", "Successfully logged with " + user], [pw]
    if choice == 42:
        return "password", ["$ ./victoria-metrics-prod -retentionPeriod=12 \\", f"    -httpAuth.username={user} -httpAuth.password='{pw}'"], [pw]
    if choice == 43:
        return "password", [f"$ couchbase-cli bucket-list -c couchbase://db.acme.io --username {user} --password '{pw}'", "orders", "sessions"], [pw]
    if choice == 44:
        return "password", ["# kibana.yml", 'elasticsearch.hosts: ["https://es.acme.io:9200"]', 'elasticsearch.username: "kibana_system"', f'elasticsearch.password: "{pw}"'], [pw]
    return "password", ["# config/runtime.exs", "config :shop, Shop.Repo,", '  username: "shop",', f'  password: "{pw}",', '  hostname: "db.acme.io",', "  pool_size: 10"], [pw]


def forty_first_negative_case(rng):
    choice = rng.randrange(32)
    if choice == 0:
        return ['$ curl -H "xc-token: $NOCODB_TOKEN" "https://nocodb.acme.io/api/v2/tables/' + rand(rng, string.ascii_lowercase + string.digits, 15) + '/records"', '{"list":[{"Id":1,"Title":"Winter sale"}],"pageInfo":{"totalRows":1}}']
    if choice == 1:
        return ['{"id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","name":"Shop","identifier":"SHOP","network":2,"total_members":' + str(rng.randint(2, 40)) + '}']
    if choice == 2:
        return ["  vikunja:", "    environment:", "      VIKUNJA_SERVICE_PUBLICURL: https://todo.acme.io", "      VIKUNJA_SERVICE_JWTSECRET: ${VIKUNJA_JWT_SECRET}"]
    if choice == 3:
        return ["$ docker logs open-webui | tail -2", "INFO:     Started server process [1]", f"INFO:     172.17.0.1:{rng.randint(30000, 60000)} - \"GET /api/v1/chats/?page=1 HTTP/1.1\" 200"]
    if choice == 4:
        return [f"[2026/12/07 10:21:33] [oauthproxy.go:162] OAuthProxy configured for Google Client ID: {rng.randint(10**11, 10**12 - 1)}-{rand(rng, string.ascii_lowercase + string.digits, 32)}.apps.googleusercontent.com"]
    if choice == 5:
        return [f"Build #{rng.randint(10, 999)} (main) {rand(rng, HEX, 40)}", "Status: success   Duration: 2m 14s"]
    if choice == 6:
        return ["$ coder list", "WORKSPACE  TEMPLATE  STATUS   HEALTHY  LAST BUILT  OUTDATED", "ana/dev    docker    Started  true     3h ago      false"]
    if choice == 7:
        return ['{"payload":[{"id":' + str(rng.randint(100, 9999)) + ',"status":"open","inbox_id":3,"uuid":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '"}]}']
    if choice == 8:
        return ['{"id":' + str(rng.randint(100, 9999)) + ',"begin":"2026-12-07T09:00:00+0100","project":4,"activity":12,"description":"Checkout review"}']
    if choice == 9:
        return ['{"iden":"' + rand(rng, ALNUM, 22) + '","type":"note","title":"Groceries","body":"milk, eggs","active":true}']
    if choice == 10:
        return ['{"event":"message","task_id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","conversation_id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","answer":"Refunds take 5 days."}']
    if choice == 11:
        return ['{"destination":"U' + rand(rng, HEX, 32) + '","events":[{"type":"follow","webhookEventId":"01H' + rand(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23) + '"}]}']
    if choice == 12:
        return ['{"status":0,"status_message":"ok","message_token":' + str(rng.randint(10**18, 10**19 - 1)) + '}']
    if choice == 13:
        return ["# litellm config.yaml", "general_settings:", "  master_key: os.environ/LITELLM_MASTER_KEY", "  database_url: os.environ/DATABASE_URL"]
    if choice == 14:
        return ['{"steamid":"7656119' + str(rng.randint(10**9, 10**10 - 1)) + '","personaname":"ana","profileurl":"https://steamcommunity.com/id/ana/"}']
    if choice == 15:
        return ["$ butler status acme/forest-game", "| CHANNEL | UPLOAD   | BUILD | VERSION |", f"| linux   | #{rng.randint(10**6, 10**7)} | #{rng.randint(10, 99)}   | 1.4.2   |"]
    if choice == 16:
        return ["# tooljet/.env", "TOOLJET_HOST=https://apps.acme.io", "LOCKBOX_MASTER_KEY=", "SECRET_KEY_BASE=", "PG_HOST=postgres"]
    if choice == 17:
        return ['{"status":"success","code":"","url":{"keyword":"' + rand(rng, string.ascii_lowercase + string.digits, 6) + '","url":"https://acme.io/sale"},"shorturl":"https://s.acme.io/sale"}']
    if choice == 18:
        return [f"GET /api/v1/request?take=20&skip=0&filter=all 200 {rng.randint(3, 90)}ms"]
    if choice == 19:
        return ["# appsmith/stacks/configuration/docker.env", "APPSMITH_ENCRYPTION_PASSWORD=", "APPSMITH_ENCRYPTION_SALT=", "APPSMITH_MAIL_ENABLED=false"]
    if choice == 20:
        return ['{"data":[{"_id":"app_' + rand(rng, HEX, 32) + '","name":"orders","status":"published","url":"/app/orders"}]}']
    if choice == 21:
        return ["client = MilvusClient(", '    uri="http://localhost:19530",', '    token=os.environ["ZILLIZ_TOKEN"])']
    if choice == 22:
        return ["# chroma.env", 'CHROMA_SERVER_AUTHN_PROVIDER="chromadb.auth.token_authn.TokenAuthenticationServerProvider"', 'CHROMA_AUTH_TOKEN_TRANSPORT_HEADER="X-Chroma-Token"']
    if choice == 23:
        return ["$ dbt run --select orders", "Done. PASS=12 WARN=0 ERROR=0 SKIP=0 TOTAL=12", f"invocation_id: {uuid.UUID(bytes=rng.randbytes(16))}"]
    if choice == 24:
        return ['{"code":"Success","data":{"items":[{"id":"projected_sickle","name":"Warehouse","created_at":"2026-12-07T10:21:33Z"}]}}']
    if choice == 25:
        return ["# looker.ini", "[Looker]", "base_url=https://acme.cloud.looker.com", "client_id=", "client_secret=", "verify_ssl=True"]
    if choice == 26:
        return ['$ tabcmd get "/views/Sales/Overview.png" -f overview.png', "===== Saved /views/Sales/Overview.png to overview.png"]
    if choice == 27:
        return [f"https://app.asana.com/0/{rng.randint(10**15, 10**16 - 1)}/{rng.randint(10**15, 10**16 - 1)}/f", "Renew the shop certificate"]
    if choice == 28:
        return [f"Task(id='{rng.randint(10**9, 10**10 - 1)}', content='Renew the shop certificate', due=Due(date='2026-12-08'))"]
    if choice == 29:
        return ['{"shortCode":"' + rand(rng, ALNUM, 5) + '","shortUrl":"https://s.acme.io/' + rand(rng, ALNUM, 5) + '","visitsSummary":{"total":' + str(rng.randint(0, 900)) + '}}']
    if choice == 30:
        return ['{"status":"SUCCESS","records":[{"id":"' + str(rng.randint(10**8, 10**9 - 1)) + '","name":"www.acme.io","type":"A","content":"203.0.113.7","ttl":"600"}]}']
    return ["$ bitcoin-cli getbestblockhash", "00000000000000000001" + rand(rng, HEX, 44), "$ bitcoin-cli getblockcount", str(rng.randint(870000, 900000))]


def forty_second_secret_case(rng):
    """The forty-second pool (`--pool forty-second`): written after the forty-first pool's fixes,
    before any rule was run on it, from places none of the forty-one earlier pools has (each
    checked against their code): Kodi's JSON-RPC user, an Audiobookshelf cover's `?token=`,
    `calibredb --password`, Komga's key, Tandoor's `tda_` token, Karakeep's `ak1_` key, Memos'
    token, Joplin's Web Clipper `?token=`, Standard Notes' server keys, Trilium's ETAPI token, Wiki.js'
    `db: pass:`, Kanboard's `jsonrpc:` token, Wekan's Mongo address, Mantis' `$g_db_password` and
    salt, Bugzilla's `api_key=`, Review Board's `rbp_` token, Prowlarr's `?apikey=`, a UniFi
    controller's password by position, a Monero view key, BIND's `rndc.key`, SNMPv3's `-A`/`-X`,
    FreeRADIUS' client `secret =`, a printer's Wi-Fi Direct password, Solr's `-credentials`,
    CouchDB's, Firebird's and Vertica's passwords, NetBox's `Token`, Nautobot's secret key,
    LibreNMS' `db_pass`, Icinga 2's API user, Checkmk's `Bearer automation`, Uptime Kuma's `uk1_`
    key after an empty user, Statuspage's `OAuth`, VictorOps' key, an Apprise Telegram address,
    matrix-commander's credentials, Casdoor's `clientSecret`, Ory Kratos' secret lists, Appwrite's
    `standard_` key, Vercel's `--token`, Cloudflare's global `X-Auth-Key`, B2's `account authorize`,
    Helm's `--set auth.postgresPassword=`, a Harbor robot's secret, SonarQube's `sqp_`, CircleCI's
    `Circle-Token` and Discourse's `Api-Key`."""
    user, host = login_parts(rng)
    choice = rng.randrange(48)
    pw = bare_password(rng, also="?=#;,|")
    lower_digits = string.ascii_lowercase + string.digits
    if choice == 0:
        return "password", [f"$ curl -u kodi:{pw} http://htpc.local:8080/jsonrpc \\", """    -d '{"jsonrpc":"2.0","method":"JSONRPC.Version","id":1}'"""], [pw]
    if choice == 1:
        v = jwt(rng)
        return "api_key", [f"https://abs.acme.io/api/items/{uuid.UUID(bytes=rng.randbytes(16))}/cover?token={v}"], [v]
    if choice == 2:
        return "password", [f"$ calibredb add dune.epub --with-library http://localhost:8080/#books --username {user} --password {pw}", "Added book ids: 412"], [pw]
    if choice == 3:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ curl https://komga.acme.io/api/v1/series?size=20 \\", f"    -H 'X-API-Key: {v}'"], [v]
    if choice == 4:
        v = "tda_" + str(uuid.UUID(bytes=rng.randbytes(16))).replace("-", "_")
        return "api_key", ["$ curl https://recipes.acme.io/api/recipe/?query=soup \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 5:
        v = f"ak1_{rand(rng, HEX, 20)}_{rand(rng, HEX, 20)}"
        return "api_key", [f"$ export KARAKEEP_API_KEY={v}", "$ karakeep --server-addr https://keep.acme.io bookmarks list --limit 5"], [v]
    if choice == 6:
        v = jwt(rng)
        return "api_key", ["$ curl https://memos.acme.io/api/v1/memos \\", f'    -H "Authorization: Bearer {v}"'], [v]
    if choice == 7:
        v = rand(rng, HEX, 128)
        return "api_key", [f'$ curl "http://localhost:41184/notes?token={v}&fields=id,title"'], [v]
    if choice == 8:
        v, w = rand(rng, HEX, 64), rand(rng, HEX, 64)
        return "api_key", ["# standardnotes/.env", "DB_HOST=db", f"AUTH_JWT_SECRET={v}", f"ENCRYPTION_SERVER_KEY={w}", "PUBLIC_FILES_SERVER_URL=https://files.acme.io"], [v, w]
    if choice == 9:
        v = rand(rng, ALNUM, 12) + "_" + base64.b64encode(rng.randbytes(24)).decode()
        return "api_key", ["$ curl https://notes.acme.io/etapi/app-info \\", f'    -H "Authorization: {v}"'], [v]
    if choice == 10:
        return "password", ["# wiki/config.yml", "port: 3000", "db:", "  type: postgres", "  host: db.acme.io", "  user: wikijs", f"  pass: {pw}", "  db: wiki"], [pw]
    if choice == 11:
        v = rand(rng, HEX, 64)
        return "api_key", [f'$ curl -u "jsonrpc:{v}" https://board.acme.io/jsonrpc.php \\', """    -d '{"jsonrpc":"2.0","method":"getAllProjects","id":1}'"""], [v]
    if choice == 12:
        return "password", ["  wekan:", "    image: ghcr.io/wekan/wekan", "    environment:", f"      - MONGO_URL=mongodb://wekan:{pw}@wekandb:27017/wekan", "      - ROOT_URL=https://board.acme.io"], [pw]
    if choice == 13:
        w = base64.b64encode(rng.randbytes(32)).decode()
        return "password", ["<?php  # mantis/config/config_inc.php", "$g_hostname = 'db.acme.io';", "$g_db_username = 'mantis';", f"$g_db_password = '{pw}';", f"$g_crypto_master_salt = '{w}';"], [pw, w]
    if choice == 14:
        v = rand(rng, ALNUM, 40)
        return "api_key", [f'$ curl "https://bugzilla.acme.io/rest/bug?api_key={v}&product=Shop&status=NEW"'], [v]
    if choice == 15:
        v = "rbp_" + rand(rng, ALNUM, 58)
        return "api_key", [f"$ rbt post --server https://reviews.acme.io --api-token {v} HEAD", "Review request #4121 posted."], [v]
    if choice == 16:
        v = rand(rng, HEX, 32)
        return "api_key", [f'$ curl "http://localhost:9696/api/v1/indexer?apikey={v}"'], [v]
    if choice == 17:
        return "password", ["from pyunifi.controller import Controller", "", f'c = Controller("unifi.acme.io", "{user}", "{pw}", port=8443, version="UDMP-unifiOS")', "print(c.get_clients())"], [pw]
    if choice == 18:
        v = rand(rng, HEX, 64)
        return "api_key", ["[wallet 44AFFq]: viewkey", f"secret: {v}", f"public: {rand(rng, HEX, 64)}"], [v]
    if choice == 19:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["$ sudo cat /etc/bind/rndc.key", 'key "rndc-key" {', "    algorithm hmac-sha256;", f'    secret "{v}";', "};"], [v]
    if choice == 20:
        pw2 = bare_password(rng, also="?=#;,|")
        return "password", [f"$ snmpwalk -v3 -l authPriv -u monitor -a SHA -A '{pw}' -x AES -X '{pw2}' 10.0.20.1 system"], [pw, pw2]
    if choice == 21:
        return "password", ["# /etc/freeradius/3.0/clients.conf", "client ap-lobby {", "    ipaddr = 10.0.20.5", f"    secret = {pw}", "}"], [pw]
    if choice == 22:
        v = rand(rng, ALNUM, 8)
        return "password", ["Wi-Fi Direct", "Status: On", f"Name: DIRECT-{rand(rng, '0123456789ABCDEF', 2)}-HP OfficeJet Pro 8010", f"Password: {v}", "Connection method: Automatic"], [v]
    if choice == 23:
        return "password", [f"$ bin/solr auth enable -type basicAuth -credentials solr:{pw} -blockUnknown true", "Successfully enabled basic auth with username [solr]."], [pw]
    if choice == 24:
        return "password", ["$ docker run -d --name couchdb -p 5984:5984 \\", f"    -e COUCHDB_USER=admin -e COUCHDB_PASSWORD={pw} couchdb:3.4"], [pw]
    if choice == 25:
        return "password", [f"$ ISC_USER=SYSDBA ISC_PASSWORD={pw} isql-fb /var/lib/firebird/data/employee.fdb", "Database: /var/lib/firebird/data/employee.fdb, User: SYSDBA", "SQL>"], [pw]
    if choice == 26:
        return "password", [f"$ vsql -h vertica.acme.io -U dbadmin -w '{pw}' -c \"SELECT version();\"", " Vertica Analytic Database v24.2.0-1"], [pw]
    if choice == 27:
        v = rand(rng, HEX, 40)
        return "api_key", [f'$ curl -H "Authorization: Token {v}" \\', "    -H 'Accept: application/json' https://netbox.acme.io/api/dcim/devices/?site=ams1"], [v]
    if choice == 28:
        v = rand(rng, string.ascii_lowercase + string.digits + "!@#%^&*(-_=+)", 50)
        return "api_key", ["# nautobot.env", "NAUTOBOT_ALLOWED_HOSTS=*", f"NAUTOBOT_SECRET_KEY={v}", "NAUTOBOT_DB_HOST=db"], [v]
    if choice == 29:
        return "password", ["<?php  # librenms/config.php", "$config['db_host'] = 'localhost';", "$config['db_user'] = 'librenms';", f"$config['db_pass'] = '{pw}';"], [pw]
    if choice == 30:
        v = rand(rng, HEX, 16)
        return "password", ["# /etc/icinga2/conf.d/api-users.conf", 'object ApiUser "root" {', f'  password = "{v}"', '  permissions = [ "*" ]', "}"], [v]
    if choice == 31:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ curl https://cmk.acme.io/mysite/check_mk/api/1.0/version \\", f'    -H "Authorization: Bearer automation {v}"'], [v]
    if choice == 32:
        v = "uk1_" + rand(rng, ALNUM, 40)
        return "api_key", [f'$ curl -u ":{v}" https://status.acme.io/metrics'], [v]
    if choice == 33:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f'$ curl -H "Authorization: OAuth {v}" \\', "    https://api.statuspage.io/v1/pages"], [v]
    if choice == 34:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ curl https://api.victorops.com/api-public/v1/incidents \\", f"    -H 'X-VO-Api-Id: {rand(rng, HEX, 8)}' -H 'X-VO-Api-Key: {v}'"], [v]
    if choice == 35:
        v = f"{rng.randint(10**9, 10**10 - 1)}:AA{rand(rng, ALNUM + '-_', 33)}"
        return "api_key", [f'$ apprise -vv -t "Backup done" -b "nas: 412 GB" "tgram://{v}/{rng.randint(10**8, 10**9)}"'], [v]
    if choice == 36:
        v = "syt_" + rand(rng, ALNUM, 8) + "_" + rand(rng, ALNUM, 20) + "_" + rand(rng, ALNUM, 6)
        return "api_key", ["$ cat ~/.config/matrix-commander/credentials.json", '{"homeserver": "https://matrix.acme.io", "device_id": "' + rand(rng, string.ascii_uppercase, 10) + '",',
                           f' "user_id": "@bot:acme.io", "access_token": "{v}"}}'], [v]
    if choice == 37:
        v = rand(rng, HEX, 40)
        return "api_key", ["# conf/app.conf", "casdoorEndpoint = https://door.acme.io", f"clientId = {rand(rng, HEX, 20)}", f"clientSecret = {v}", "organization = acme"], [v]
    if choice == 38:
        v, w = rand(rng, ALNUM, 32), rand(rng, ALNUM, 32)
        return "api_key", ["# kratos.yml", "secrets:", "  cookie:", f"    - {v}", "  cipher:", f"    - {w}"], [v, w]
    if choice == 39:
        v = "standard_" + rand(rng, HEX, 256)
        return "api_key", ["$ curl https://cloud.appwrite.io/v1/users \\", "    -H 'X-Appwrite-Project: shop' \\", f"    -H 'X-Appwrite-Key: {v}'"], [v]
    if choice == 40:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f"$ vercel deploy --prod --token {v}", "Vercel CLI 39.1.2", "🔍  Inspect: https://vercel.com/acme/shop/8kQ2 [2s]"], [v]
    if choice == 41:
        v = rand(rng, HEX, 37)
        return "api_key", ['$ curl "https://api.cloudflare.com/client/v4/zones?name=acme.io" \\', f'    -H "X-Auth-Email: ana@acme.io" -H "X-Auth-Key: {v}"'], [v]
    if choice == 42:
        v = "K005" + rand(rng, ALNUM + "+/", 27)
        return "api_key", [f"$ b2 account authorize 005{rand(rng, HEX, 22)} {v}", "Using https://api.backblazeb2.com"], [v]
    if choice == 43:
        return "password", [f"$ helm install db bitnami/postgresql --set auth.postgresPassword={pw} --set auth.database=shop", "NAME: db", "STATUS: deployed"], [pw]
    if choice == 44:
        v = rand(rng, ALNUM, 32)
        return "api_key", ['{"id":7,"name":"robot$shop+ci","secret":"' + v + '","creation_time":"2026-12-07T10:21:33Z","expires_at":-1}'], [v]
    if choice == 45:
        v = "sqp_" + rand(rng, HEX, 40)
        return "api_key", ["$ mvn verify sonar:sonar -Dsonar.projectKey=shop \\", f"    -Dsonar.host.url=https://sonar.acme.io -Dsonar.token={v}"], [v]
    if choice == 46:
        v = rand(rng, HEX, 40)
        return "api_key", [f'$ curl -H "Circle-Token: {v}" https://circleci.com/api/v2/me', '{"name":"ana","login":"ana","id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '"}'], [v]
    v = rand(rng, HEX, 64)
    return "api_key", ['$ curl "https://forum.acme.io/latest.json" \\', f'    -H "Api-Key: {v}" -H "Api-Username: system"'], [v]


def forty_second_negative_case(rng):
    choice = rng.randrange(36)
    if choice == 0:
        return ['{"id":1,"jsonrpc":"2.0","result":{"version":{"major":13,"minor":5,"patch":0}}}']
    if choice == 1:
        return [f"GET /api/items/{uuid.UUID(bytes=rng.randbytes(16))}/cover?width=400 200 {rng.randint(3, 90)} ms"]
    if choice == 2:
        return ["$ calibredb list --fields title,authors", "id  title              authors", f"{rng.randint(100, 999)} Dune               Frank Herbert"]
    if choice == 3:
        return ['{"content":[{"id":"' + rand(rng, string.ascii_uppercase + string.digits, 13) + '","libraryId":"' + rand(rng, string.ascii_uppercase + string.digits, 13) + '","name":"Saga","booksCount":9}]}']
    if choice == 4:
        return ['{"id":' + str(rng.randint(10, 999)) + ',"name":"Tomato soup","servings":4,"working_time":20,"waiting_time":40}']
    if choice == 5:
        return ["$ karakeep bookmarks list --limit 1", '{"id":"' + rand(rng, string.ascii_lowercase + string.digits, 24) + '","title":"Rust async book","archived":false}']
    if choice == 6:
        return ['{"name":"memos/' + rand(rng, ALNUM, 22) + '","state":"NORMAL","content":"Buy milk","visibility":"PRIVATE"}']
    if choice == 7:
        return ['{"id":"' + rand(rng, HEX, 32) + '","parent_id":"' + rand(rng, HEX, 32) + '","title":"Groceries"}']
    if choice == 8:
        return ['{"noteId":"' + rand(rng, ALNUM, 12) + '","title":"Trip plan","type":"text","mime":"text/html"}']
    if choice == 9:
        return ["# wiki/config.yml", "db:", "  type: postgres", "  user: wikijs", "  pass: $(DB_PASS)", "  db: wiki"]
    if choice == 10:
        return ['{"jsonrpc":"2.0","id":1,"result":[{"id":"1","name":"Shop","token":"","is_active":"1"}]}']
    if choice == 11:
        return ["    environment:", "      - MONGO_URL=mongodb://wekandb:27017/wekan", "      - ROOT_URL=https://board.acme.io"]
    if choice == 12:
        return ["$g_db_username = 'mantis';", "$g_db_password = getenv('MANTIS_DB_PASSWORD');", "$g_default_timezone = 'Europe/Berlin';"]
    if choice == 13:
        return ['{"bugs":[{"id":' + str(rng.randint(1000, 99999)) + ',"summary":"Checkout fails on Safari","status":"NEW","priority":"P2"}]}']
    if choice == 14:
        return ["$ rbt status", f"* r/{rng.randint(1000, 9999)} - Fix rounding in cart totals", f"* r/{rng.randint(1000, 9999)} - Add Dutch translations"]
    if choice == 15:
        return ["[Info] Bootstrap: Starting Prowlarr - /app/bin/Prowlarr - Version 1.28.2.4885", "[Info] AppFolderInfo: Data directory is being overridden to [/config]"]
    if choice == 16:
        return [f"MAC: 74:ac:b9:{rand(rng, HEX, 2)}:{rand(rng, HEX, 2)}:{rand(rng, HEX, 2)}  model: U6LR  version: 6.6.77.15402"]
    if choice == 17:
        return ["[wallet 44AFFq]: address", "0  4" + rand(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 94) + "  Primary address"]
    if choice == 18:
        return ["$ sudo rndc status", "version: BIND 9.18.28-1~deb12u2-Debian (Extended Support Version)", f"number of zones: {rng.randint(100, 120)} (99 automatic)", "server is up and running"]
    if choice == 19:
        return [f"SNMPv2-MIB::sysDescr.0 = STRING: Linux nas 6.1.0-{rng.randint(20, 28)}-amd64", f"SNMPv2-MIB::sysUpTime.0 = Timeticks: ({rng.randint(10**6, 10**8)}) 3 days, 1:02:03.04"]
    if choice == 20:
        return [f"({rng.randint(1, 9)}) Login OK: [ana] (from client ap-lobby port 0 cli 74-AC-B9-{rand(rng, '0123456789ABCDEF', 2)}-12-34)"]
    if choice == 21:
        return ["Wi-Fi Direct", "Status: On", "Name: DIRECT-7F-HP OfficeJet Pro 8010", "Password: ********  (Show)"]
    if choice == 22:
        return ["$ bin/solr auth enable -type basicAuth -prompt true -blockUnknown true", "Enter user:password: "]
    if choice == 23:
        return ['$ curl http://localhost:5984/_uuids?count=2', '{"uuids":["' + rand(rng, HEX, 32) + '","' + rand(rng, HEX, 32) + '"]}']
    if choice == 24:
        return ["SQL> SHOW DATABASE;", "Database: /var/lib/firebird/data/employee.fdb", "        Owner: SYSDBA", "PAGE_SIZE 8192"]
    if choice == 25:
        return ['{"id":' + str(rng.randint(1, 999)) + ',"name":"ams1-sw01","serial":"FOC' + rand(rng, string.ascii_uppercase + string.digits, 8) + '","asset_tag":null,"status":{"value":"active"}}']
    if choice == 26:
        return ["# icinga2/conf.d/api-users.conf", 'object ApiUser "master" {', '  client_cn = "icinga2-master1.acme.io"', '  permissions = [ "*" ]', "}"]
    if choice == 27:
        return ['{"site":"mysite","group":"monitoring","versions":{"checkmk":"2.3.0p10.cre","python":"3.12.3"},"edition":"cre"}']
    if choice == 28:
        return [f'monitor_status{{monitor_name="shop",monitor_type="http",monitor_url="https://acme.io"}} 1', f'monitor_response_time{{monitor_name="shop"}} {rng.randint(40, 400)}']
    if choice == 29:
        return ['{"id":"' + rand(rng, string.ascii_lowercase + string.digits, 12) + '","name":"Acme","subdomain":"acme","time_zone":"Etc/UTC"}']
    if choice == 30:
        return ['$ apprise -vv -t "Backup done" -b "nas: 412 GB" --config ~/.config/apprise.yml', "Sent Telegram notification."]
    if choice == 31:
        return ['{"id":"' + str(uuid.UUID(bytes=rng.randbytes(16))) + '","number":' + str(rng.randint(100, 9999)) + ',"state":"created","vcs":{"revision":"' + rand(rng, HEX, 40) + '"}}']
    if choice == 32:
        return ['{"result":[{"id":"' + rand(rng, HEX, 32) + '","name":"acme.io","status":"active","paused":false}],"success":true}']
    if choice == 33:
        return ["$ b2 ls b2://acme-backups/nas/", "nas/2026-12-06.tar.zst", "nas/2026-12-07.tar.zst"]
    if choice == 34:
        return ["$ helm install db bitnami/postgresql --set auth.existingSecret=db-credentials --set auth.database=shop", "STATUS: deployed"]
    return ["INFO: ANALYSIS SUCCESSFUL, you can find the results at: https://sonar.acme.io/dashboard?id=shop",
            f"INFO: More about the report processing at https://sonar.acme.io/api/ce/task?id={rand(rng, ALNUM + '-_', 20)}"]


def forty_third_secret_case(rng):
    """The forty-third pool (`--pool forty-third`): written after round 164's first fixes, before
    any rule was run on it, from places none of the forty-two earlier pools has (each checked
    against their code): Navidrome's Subsonic `p=enc:` password, Jellyseerr's and mailcow's
    `X-API-Key`, Tautulli's, Jackett's and Kavita's keys in addresses, Grocy's `GROCY-API-KEY`,
    Mealie's OIDC secret, Gatus' PagerDuty key, go2rtc's camera address, motionEye's
    `netcam_userpass`, VyOS' `plaintext-password`, FortiGate's `set password`, PowerDNS' `api-key=`,
    lego's Cloudflare token, Mailu's `SECRET_KEY`, Matterbridge's Discord token, Pleroma's
    `secret_key_base`, Misskey's `pass:`, PeerTube's `secrets:`, Pixelfed's passport client secret,
    WriteFreely's `--create-admin`, PostgREST's `db-uri` and `jwt-secret`, Passbolt's database
    password, Garage's `key create`, SeaweedFS' `s3.json`, Longhorn's S3 secret, Lidarr's
    `<ApiKey>`, Bazarr's `apikey:`, Organizr's `Token`, Homarr's encryption key, Webmin's
    `changepass.pl`, Watchtower's `discord://` address, Diun's Gotify token, CrateDB's `CRATEPW`,
    YugabyteDB's connection string, OrientDB's `CONNECT`, HiveMQ's `-pw`, LibreSpeed's password,
    Smokeping's secrets file, Loggly's token in a path, Nginx Proxy Manager's database password,
    Linkwarden's `NEXTAUTH_SECRET`, Invidious' `hmac_key`, Planka's key, Pterodactyl Wings' token,
    coturn's `static-auth-secret` and Focalboard's `dbconfig`."""
    user, host = login_parts(rng)
    choice = rng.randrange(48)
    pw = bare_password(rng, also="?=#;,|")
    if choice == 0:
        v = pw.encode().hex()
        return "password", [f'$ curl "https://music.acme.io/rest/ping.view?u={user}&p=enc:{v}&v=1.16.1&c=cli&f=json"'], [v]
    if choice == 1:
        v = base64.b64encode(rng.randbytes(48)).decode()
        return "api_key", ["$ curl https://requests.acme.io/api/v1/request?take=20 \\", f"    -H 'X-Api-Key: {v}'"], [v]
    if choice == 2:
        v = rand(rng, HEX, 32)
        return "api_key", [f'$ curl "http://nas.local:8181/api/v2?apikey={v}&cmd=get_activity"'], [v]
    if choice == 3:
        v = rand(rng, ALNUM, 50)
        return "api_key", ["$ curl https://grocy.acme.io/api/stock \\", f'    -H "GROCY-API-KEY: {v}"'], [v]
    if choice == 4:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["  mealie:", "    image: ghcr.io/mealie-recipes/mealie:v2.3.0", "    environment:", "      OIDC_AUTH_ENABLED: true",
                           "      OIDC_CLIENT_ID: mealie", f"      OIDC_CLIENT_SECRET: {v}"], [v]
    if choice == 5:
        v = rand(rng, HEX, 32)
        return "api_key", ["# gatus/config.yaml", "alerting:", "  pagerduty:", f'    integration-key: "{v}"', "    default-alert:", "      failure-threshold: 3"], [v]
    if choice == 6:
        return "password", ["# go2rtc.yaml", "streams:", f"  front: rtsp://admin:{pw}@10.0.30.11:554/Streaming/Channels/101", "  back: ffmpeg:front#video=h264"], [pw]
    if choice == 7:
        return "password", ["# /etc/motioneye/camera-1.conf", "netcam_url rtsp://10.0.30.12:554/stream1", f"netcam_userpass admin:{pw}", "netcam_keepalive on"], [pw]
    if choice == 8:
        return "password", ["vyos@router# set system login user ana full-name 'Ana Souza'", f"vyos@router# set system login user ana authentication plaintext-password '{pw}'", "vyos@router# commit"], [pw]
    if choice == 9:
        return "password", ["FGT60F # config system admin", 'FGT60F (admin) # edit "backup"', f"FGT60F (backup) # set password {pw}", "FGT60F (backup) # set accprofile super_admin", "FGT60F (backup) # end"], [pw]
    if choice == 10:
        v = rand(rng, ALNUM, 24)
        return "api_key", ["# /etc/powerdns/pdns.conf", "api=yes", f"api-key={v}", "webserver-address=127.0.0.1", "webserver-port=8081"], [v]
    if choice == 11:
        v = rand(rng, ALNUM + "-_", 40)
        return "api_key", [f"$ CLOUDFLARE_DNS_API_TOKEN={v} lego --email ana@acme.io --dns cloudflare -d '*.acme.io' run",
                           "[INFO] [*.acme.io] acme: Obtaining bundled SAN certificate"], [v]
    if choice == 12:
        v = "-".join(rand(rng, "0123456789ABCDEF", 6) for _ in range(5))
        return "api_key", ['$ curl "https://mail.acme.io/api/v1/get/mailbox/all" \\', f'    -H "X-API-Key: {v}"'], [v]
    if choice == 13:
        v = rand(rng, string.ascii_uppercase + string.digits, 16)
        return "api_key", ["# mailu.env", "DOMAIN=acme.io", "HOSTNAMES=mail.acme.io", f"SECRET_KEY={v}", "SUBNET=192.168.203.0/24"], [v]
    if choice == 14:
        v = base64.b64encode(str(rng.randint(10**17, 10**19 - 1)).encode()).decode().rstrip("=") + "." + rand(rng, ALNUM + "-_", 6) + "." + rand(rng, ALNUM + "-_", 38)
        return "api_key", ["# matterbridge.toml", "[discord.acme]", f'Token="{v}"', 'Server="Acme"', "RemoteNickFormat=\"[{PROTOCOL}] <{NICK}> \""], [v]
    if choice == 15:
        v = rand(rng, ALNUM + "+/", 64)
        return "api_key", ["# config/prod.secret.exs", "config :pleroma, Pleroma.Web.Endpoint,", '   url: [host: "social.acme.io", scheme: "https", port: 443],',
                           f'   secret_key_base: "{v}",', f'   signing_salt: "{rand(rng, ALNUM, 8)}"'], [v]
    if choice == 16:
        return "password", ["# misskey/.config/default.yml", "url: https://mk.acme.io/", "db:", "  host: db", "  port: 5432", "  db: misskey", "  user: misskey", f"  pass: {pw}"], [pw]
    if choice == 17:
        v = rand(rng, HEX, 64)
        return "api_key", ["# peertube/config/production.yaml", "secrets:", f"  peertube: '{v}'", "database:", "  hostname: 'localhost'"], [v]
    if choice == 18:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ php artisan passport:client --personal", " What should we name the personal access client? [Pixelfed Personal Access Client]:", " >",
                           "Personal access client created successfully.", f"Client ID: {rng.randint(2, 9)}", f"Client secret: {v}"], [v]
    if choice == 19:
        return "password", [f"$ writefreely --create-admin {user}:{pw}", "Creating admin user...", "Done."], [pw]
    if choice == 20:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["# postgrest.conf", f'db-uri = "postgres://authenticator:{pw}@localhost:5432/app"', 'db-schemas = "api"', f'jwt-secret = "{v}"'], [pw, v]
    if choice == 21:
        return "password", ["$ docker run -d --name passbolt -p 443:443 \\", "    -e DATASOURCES_DEFAULT_HOST=db -e DATASOURCES_DEFAULT_USERNAME=passbolt \\",
                            f"    -e DATASOURCES_DEFAULT_PASSWORD={pw} passbolt/passbolt:latest-ce"], [pw]
    if choice == 22:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ garage key create shop-app", "Key name: shop-app", f"Key ID: GK{rand(rng, HEX, 24)}", f"Secret key: {v}", "Can create buckets: false"], [v]
    if choice == 23:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["$ cat /etc/seaweedfs/s3.json", '{"identities": [{"name": "admin", "credentials": [{"accessKey": "' + rand(rng, string.ascii_uppercase + string.digits, 20) + '",',
                           f' "secretKey": "{v}"}}], "actions": ["Admin", "Read", "Write"]}}]}}'], [v]
    if choice == 24:
        v = rand(rng, ALNUM + "+/", 40)
        return "api_key", ["$ kubectl -n longhorn-system create secret generic s3-secret \\", f"    --from-literal=AWS_ACCESS_KEY_ID=AKIA{rand(rng, string.ascii_uppercase + '234567', 16)} \\",
                           f"    --from-literal=AWS_SECRET_ACCESS_KEY={v} \\", "    --from-literal=AWS_ENDPOINTS=https://s3.acme.io"], [v]
    if choice == 25:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f'$ curl -X POST "https://read.acme.io/api/Plugin/authenticate?apiKey={v}&pluginName=cli"'], [v]
    if choice == 26:
        v = rand(rng, HEX, 32)
        return "api_key", ["$ cat /config/config.xml", "<Config>", "  <Port>8686</Port>", f"  <ApiKey>{v}</ApiKey>", "  <AuthenticationMethod>Forms</AuthenticationMethod>", "</Config>"], [v]
    if choice == 27:
        v = rand(rng, HEX, 32)
        return "api_key", ["# bazarr/config/config.yaml", "auth:", f"  apikey: {v}", "  password: ''", "  type: null", "  username: ''"], [v]
    if choice == 28:
        v = rand(rng, string.ascii_lowercase + string.digits, 32)
        return "api_key", [f'$ curl "http://localhost:9117/api/v2.0/indexers/all/results/torznab/api?apikey={v}&t=search&q=debian"'], [v]
    if choice == 29:
        v = rand(rng, ALNUM, 20)
        return "api_key", ['$ curl "https://home.acme.io/api/v2/status" \\', f'    -H "Token: {v}"'], [v]
    if choice == 30:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ docker run -d -p 7575:7575 -v ./homarr:/appdata \\", f"    -e SECRET_ENCRYPTION_KEY={v} ghcr.io/homarr-labs/homarr:latest"], [v]
    if choice == 31:
        return "password", [f"$ sudo /usr/share/webmin/changepass.pl /etc/webmin root {pw}", "Updated password of Webmin user root"], [pw]
    if choice == 32:
        v = rand(rng, ALNUM + "-_", 68)
        return "api_key", ["$ docker run -d --name watchtower -v /var/run/docker.sock:/var/run/docker.sock \\",
                           f'    -e WATCHTOWER_NOTIFICATION_URL="discord://{v}@{rng.randint(10**17, 10**19 - 1)}" containrrr/watchtower'], [v]
    if choice == 33:
        v = "A" + rand(rng, ALNUM + "._-", 14)
        return "api_key", ["# diun.yml", "notif:", "  gotify:", "    endpoint: http://gotify:8080", f"    token: {v}", "    priority: 1"], [v]
    if choice == 34:
        return "password", [f"$ CRATEPW='{pw}' crash --hosts https://crate.acme.io:4200 --username {user}", "CONNECT OK", "cr>"], [pw]
    if choice == 35:
        return "password", [f'$ ysqlsh "host=yb.acme.io port=5433 user=yugabyte password={pw} sslmode=require"', "ysqlsh (11.2-YB-2.20.7.0-b0)", "yugabyte=#"], [pw]
    if choice == 36:
        return "password", ["$ ./console.sh", "OrientDB console v.3.2.35", f"orientdb> CONNECT remote:localhost/shop root {pw}", "Connecting to database [remote:localhost/shop] with user 'root'...OK"], [pw]
    if choice == 37:
        return "password", [f"$ mqtt pub -h broker.acme.io -p 8883 -s -u {user} -pw {pw} -t shop/orders -m 'order 4121 paid'"], [pw]
    if choice == 38:
        return "password", [f"$ docker run -d -e MODE=standalone -e TELEMETRY=true -e PASSWORD='{pw}' -p 80:8080 ghcr.io/librespeed/speedtest"], [pw]
    if choice == 39:
        pw2 = bare_password(rng, also="?=#;,|")
        return "password", ["$ sudo cat /etc/smokeping/smokeping_secrets", f"boomer:{pw}", f"slave2:{pw2}"], [pw, pw2]
    if choice == 40:
        v = str(uuid.UUID(bytes=rng.randbytes(16)))
        return "api_key", [f"$ curl -H 'content-type:text/plain' -d 'backup done' https://logs-01.loggly.com/inputs/{v}/tag/http/", '{"response" : "ok"}'], [v]
    if choice == 41:
        return "password", ["  npm:", "    image: jc21/nginx-proxy-manager:latest", "    environment:", '      DB_MYSQL_HOST: "db"', '      DB_MYSQL_USER: "npm"', f'      DB_MYSQL_PASSWORD: "{pw}"'], [pw]
    if choice == 42:
        v = base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["# linkwarden/.env", "NEXTAUTH_URL=https://links.acme.io/api/v1/auth", f"NEXTAUTH_SECRET={v}", "DATABASE_URL=postgresql://linkwarden@db:5432/linkwarden"], [v]
    if choice == 43:
        v = rand(rng, ALNUM, 20)
        return "api_key", ["# invidious/config/config.yml", "db:", "  dbname: invidious", "  host: invidious-db", f'hmac_key: "{v}"', "check_tables: true"], [v]
    if choice == 44:
        v = rand(rng, HEX, 128)
        return "api_key", ["# planka/.env", "BASE_URL=https://planka.acme.io", f"SECRET_KEY={v}", "DATABASE_URL=postgresql://postgres@postgres/planka"], [v]
    if choice == 45:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["# /etc/pterodactyl/config.yml", "debug: false", f"uuid: {uuid.UUID(bytes=rng.randbytes(16))}", f"token_id: {rand(rng, ALNUM, 16)}", f"token: {v}", "api:", "  host: 0.0.0.0"], [v]
    if choice == 46:
        v = rand(rng, HEX, 64)
        return "api_key", ["# /etc/turnserver.conf", "listening-port=3478", "use-auth-secret", f"static-auth-secret={v}", "realm=turn.acme.io"], [v]
    return "password", ['{"serverRoot": "https://boards.acme.io", "port": 8000, "dbtype": "postgres",',
                        f' "dbconfig": "postgres://boardsuser:{pw}@localhost/boards?sslmode=disable&connect_timeout=10", "useSSL": false}}'], [pw]


def forty_third_negative_case(rng):
    choice = rng.randrange(36)
    if choice == 0:
        return ['{"subsonic-response":{"status":"ok","version":"1.16.1","type":"navidrome","serverVersion":"0.53.3 (' + rand(rng, HEX, 8) + ')","openSubsonic":true}}']
    if choice == 1:
        return ['{"pageInfo":{"pages":1,"pageSize":20,"results":3,"page":1},"results":[{"id":' + str(rng.randint(1, 99)) + ',"status":2,"media":{"tmdbId":' + str(rng.randint(100, 99999)) + '}}]}']
    if choice == 2:
        return ['{"response":{"result":"success","data":{"stream_count":"2","sessions":[{"session_key":"' + str(rng.randint(1, 99)) + '","rating_key":"' + str(rng.randint(1000, 99999)) + '"}]}}}']
    if choice == 3:
        return ['{"id":"' + str(rng.randint(1, 99)) + '","name":"Milk","product_group_id":"3","min_stock_amount":"2","qu_id_stock":"1"}']
    if choice == 4:
        return ["    environment:", "      OIDC_AUTH_ENABLED: true", "      OIDC_CLIENT_ID: mealie", "      OIDC_CLIENT_SECRET: ${OIDC_CLIENT_SECRET}"]
    if choice == 5:
        return ["endpoints:", "  - name: api", '    url: "https://api.acme.io/health"', "    conditions:", '      - "[STATUS] == 200"', '      - "[RESPONSE_TIME] < 300"']
    if choice == 6:
        return ["streams:", "  front: rtsp://10.0.30.11:554/Streaming/Channels/101", "  back: ffmpeg:front#video=h264#hardware"]
    if choice == 7:
        return ["netcam_url rtsp://10.0.30.12:554/stream1", "netcam_keepalive on", "netcam_tolerant_check on", f"framerate {rng.randint(5, 30)}"]
    if choice == 8:
        blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rng.randbytes(32)
        return [f"vyos@router# set system login user ana authentication public-keys ana@laptop key '{base64.b64encode(blob).decode()}'",
                "vyos@router# set system login user ana authentication public-keys ana@laptop type 'ssh-ed25519'"]
    if choice == 9:
        return ["FGT60F # config system interface", 'FGT60F (interface) # edit "port1"', "FGT60F (port1) # set ip 10.0.0.1 255.255.255.0", "FGT60F (port1) # set allowaccess ping https ssh"]
    if choice == 10:
        return ["$ pdnsutil show-zone acme.io", "This is a Master zone", f"ID = 1 (CSK), flags = 257, tag = {rng.randint(1000, 65000)}, algo = 13, bits = 256 Active Published ( ECDSAP256SHA256 )",
                f"CSK DNSKEY = acme.io. IN DNSKEY 257 3 13 {base64.b64encode(rng.randbytes(64)).decode()} ; ( ECDSAP256SHA256 )"]
    if choice == 11:
        return ["2026/12/07 10:21:33 [INFO] [*.acme.io] acme: Obtaining bundled SAN certificate", "2026/12/07 10:21:41 [INFO] [*.acme.io] Server responded with a certificate."]
    if choice == 12:
        return ['[{"domain_name":"acme.io","max_num_mboxes_for_domain":10,"mboxes_in_domain":' + str(rng.randint(1, 9)) + ',"active":1}]']
    if choice == 13:
        return ["# mailu.env", "DOMAIN=acme.io", "HOSTNAMES=mail.acme.io", "SECRET_KEY_FILE=/run/secrets/mailu_key", "SUBNET=192.168.203.0/24"]
    if choice == 14:
        return ["[[gateway]]", 'name="gateway1"', "enable=true", "[[gateway.inout]]", 'account="discord.acme"', 'channel="general"']
    if choice == 15:
        return ["config :pleroma, :instance,", '  name: "Acme social",', '  email: "admin@acme.io",', "  limit: 5000,", "  registrations_open: false"]
    if choice == 16:
        return ["url: https://mk.acme.io/", "port: 3000", "id: 'aidx'", "redis:", "  host: redis", "  port: 6379"]
    if choice == 17:
        return ["$ sudo -u peertube NODE_CONFIG_DIR=/var/www/peertube/config NODE_ENV=production npm run reset-password -- -u root", "Enter the new password:"]
    if choice == 18:
        return ["$ php artisan passport:keys", "Encryption keys generated successfully."]
    if choice == 19:
        return ["$ writefreely --gen-keys", "Generating cookie authentication keys...", "Generating email authentication key...", "Done."]
    if choice == 20:
        return ["# postgrest.conf", 'db-uri = "postgres://authenticator@localhost:5432/app"', 'db-schemas = "api"', 'jwt-secret = "@/etc/postgrest/jwt.secret"']
    if choice == 21:
        return ["[PASS] The server OpenPGP key is set.", f"[PASS] The server key fingerprint matches: {rand(rng, '0123456789ABCDEF', 40)}"]
    if choice == 22:
        return ["$ garage key list", "ID                          Name", f"GK{rand(rng, HEX, 24)}  shop-app", f"GK{rand(rng, HEX, 24)}  backups"]
    if choice == 23:
        return ["> s3.bucket.list", f"  shop\tsize:{rng.randint(1000, 999999)}\tchunk:{rng.randint(1, 99)}", f"  backups\tsize:{rng.randint(1000, 999999)}\tchunk:{rng.randint(1, 99)}"]
    if choice == 24:
        return ["$ kubectl -n longhorn-system get backuptargets", "NAME      URL                         CREDENTIAL   LASTBACKUPAT   AVAILABLE", "default   s3://backups@us-east-1/   s3-secret    5m             true"]
    if choice == 25:
        return ['{"id":' + str(rng.randint(1, 9)) + ',"name":"Manga","type":0,"lastScanned":"2026-12-07T09:12:44"}']
    if choice == 26:
        return ["<Config>", "  <InstanceName>Lidarr</InstanceName>", "  <UrlBase></UrlBase>", "  <UpdateMechanism>Docker</UpdateMechanism>", "  <Branch>master</Branch>", "</Config>"]
    if choice == 27:
        return ["general:", "  ip: 0.0.0.0", "  port: 6767", "  base_url: ''", "  instance_name: Bazarr"]
    if choice == 28:
        return [f"magnet:?xt=urn:btih:{rand(rng, HEX, 40)}&dn=debian-12.8.0-amd64-netinst.iso&tr=udp%3A%2F%2Ftracker.acme.io%3A1337"]
    if choice == 29:
        return ['{"response":{"result":"success","message":null,"data":{"version":"2.1.' + str(rng.randint(1000, 3000)) + '","branch":"v2-master"}}}']
    if choice == 30:
        return [f"Homarr is running on http://0.0.0.0:7575 (build 1.{rng.randint(0, 9)}.0)"]
    if choice == 31:
        return ["# /etc/webmin/miniserv.conf", "port=10000", "ssl=1", "keyfile=/etc/webmin/miniserv.pem"]
    if choice == 32:
        return [f'time="2026-12-07T04:00:00Z" level=info msg="Session done" Failed=0 Scanned={rng.randint(2, 40)} Updated=1 notify=no']
    if choice == 33:
        return ["# .github/dependabot.yml", "registries:", "  npm-acme:", "    type: npm-registry", "    url: https://npm.acme.io", "    token: ${{secrets.NPM_TOKEN}}"]
    if choice == 34:
        return ["cr> SELECT name, number_of_shards FROM information_schema.tables LIMIT 2;", "| orders | 4 |", "| users  | 4 |", "SELECT 2 rows in set (0.004 sec)"]
    return ['$ ysqlsh "host=yb.acme.io port=5433 user=yugabyte sslmode=require"', "Password for user yugabyte:"]


def forty_fourth_secret_case(rng):
    """The forty-fourth pool (`--pool forty-fourth`): written after round 165 began, before any rule
    was run on it, from places none of the forty-three earlier pools has (each checked against their
    code): Dashy's weather widget `apiKey`, Scrutiny's shoutrrr Telegram address, Glances'
    `[influxdb2]` token, Jaeger's `--es.password`, Zipkin's `ES_PASSWORD`, VerneMQ's `api-key create`,
    Heimdall's Laravel `APP_KEY`, Uptime Kuma's `uk` API key, Baikal's `mysql_password`, Radicale's
    `htpasswd -b`, changedetection.io's apprise `tgram://` address, Stirling-PDF's initial login,
    HedgeDoc's `CMD_DB_URL` and `CMD_SESSION_SECRET`, Etherpad's `APIKEY.txt` and `settings.json`,
    Kanidm's `recover-account`, Druid's metadata password, Pinot's admin principal, RethinkDB's
    `--initial-password`, Pritunl's `default-password`, Technitium's `token=`, Airsonic's `JWTKey`,
    Funkwhale's `DJANGO_SECRET_KEY`, Owncast's `-streamkey`, Castopod's CodeIgniter `.env`,
    GoToSocial's `admin account create`, Psono's `PRIVATE_KEY`, Snipe-IT's `MAIL_PASSWORD`, GLPI's
    `$dbpassword`, Zammad's `update!(password:)`, osTicket's `DBPASS`, Typebot's
    `ENCRYPTION_SECRET`, Formbricks' `CRON_SECRET`, Kutt's `JWT_SECRET`, PrivateBin's key after `#`,
    Zipline's bare `authorization:` header, Chibisafe's `x-api-key`, Piwigo's `$conf['db_password']`,
    Baserow's `Token` header, Grist's session secret, Windmill's `--token`, Kestra's basic auth,
    Salt's `mysql.pass`, Foreman's `--foreman-initial-admin-password`, Owncast's table of stream
    keys, `mysql --password=` and Psono's `EMAIL_HOST_PASSWORD`."""
    user, host = login_parts(rng)
    choice = rng.randrange(48)
    pw = bare_password(rng, also="?=#;,|")
    if choice == 0:
        v = rand(rng, HEX, 32)
        return "api_key", ["# dashy/conf.yml", "widgets:", "  - type: weather", "    options:", f"      apiKey: {v}", "      city: Lisbon", "      units: metric"], [v]
    if choice == 1:
        v = f"{rng.randint(10**8, 10**10 - 1)}:AA{rand(rng, ALNUM + '-_', 33)}"
        return "api_key", ["# scrutiny.yaml", "notify:", "  urls:", f'    - "telegram://{v}@telegram?chats=@acme_disks"'], [v.split(":")[1]]
    if choice == 2:
        v = rand(rng, ALNUM + "-_", 86) + "=="
        return "api_key", ["# /etc/glances/glances.conf", "[influxdb2]", "host=localhost", "port=8086", "org=acme", "bucket=glances", f"token={v}"], [v]
    if choice == 3:
        return "password", ["$ docker run -d --name jaeger-collector jaegertracing/jaeger-collector:1.62.0 \\",
                            f"    --es.server-urls=http://es.acme.io:9200 --es.username=elastic --es.password={pw}"], [pw]
    if choice == 4:
        return "password", [f"$ docker run -d -p 9411:9411 -e STORAGE_TYPE=elasticsearch -e ES_HOSTS=http://es:9200 -e ES_USERNAME=elastic -e ES_PASSWORD={pw} openzipkin/zipkin"], [pw]
    if choice == 5:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ sudo vmq-admin api-key create", v, "$ sudo vmq-admin api-key show", "+----------------------------------+", f"| {v} |"], [v]
    if choice == 6:
        v = "base64:" + base64.b64encode(rng.randbytes(32)).decode()
        return "api_key", ["# heimdall/www/.env", "APP_NAME=Heimdall", "APP_ENV=local", f"APP_KEY={v}", "APP_DEBUG=false"], [v[7:]]
    if choice == 7:
        v = f"uk{rng.randint(1, 30)}_{rand(rng, ALNUM + '-_', 32)}"
        return "api_key", [f"$ curl -u ':{v}' https://status.acme.io/metrics | head -3", "# HELP monitor_cert_days_remaining The number of days remaining until the certificate expires"], [v]
    if choice == 8:
        return "password", ["# baikal/config/baikal.yaml", "database:", "    mysql: true", "    mysql_host: db", "    mysql_dbname: baikal", "    mysql_username: baikal", f"    mysql_password: {pw}"], [pw]
    if choice == 9:
        return "password", [f"$ sudo htpasswd -B -b /etc/radicale/users {user} {pw}", f"Adding password for user {user}"], [pw]
    if choice == 10:
        v = f"{rng.randint(10**8, 10**10 - 1)}:AA{rand(rng, ALNUM + '-_', 33)}"
        return "api_key", ["Notification URL list:", f"tgram://{v}/{rng.randint(10**8, 10**10)}", "mailto://alerts@acme.io"], [v.split(":")[1]]
    if choice == 11:
        return "password", ["  stirling-pdf:", "    image: frooodle/s-pdf:latest", "    environment:", "      DOCKER_ENABLE_SECURITY: true", "      SECURITY_ENABLELOGIN: true",
                            "      SECURITY_INITIALLOGIN_USERNAME: admin", f"      SECURITY_INITIALLOGIN_PASSWORD: {pw}"], [pw]
    if choice == 12:
        return "password", ["  hedgedoc:", "    image: quay.io/hedgedoc/hedgedoc:1.10.0", "    environment:", f"      - CMD_DB_URL=postgres://hedgedoc:{pw}@database:5432/hedgedoc",
                            "      - CMD_DOMAIN=pad.acme.io"], [pw]
    if choice == 13:
        v = rand(rng, HEX, 64)
        return "api_key", ["# hedgedoc.env", "CMD_DOMAIN=pad.acme.io", "CMD_PROTOCOL_USESSL=true", f"CMD_SESSION_SECRET={v}"], [v]
    if choice == 14:
        v = rand(rng, HEX, 64)
        return "api_key", ["$ cat /opt/etherpad-lite/APIKEY.txt", v, '$ curl "http://localhost:9001/api/1/createPad?apikey=$(cat APIKEY.txt)&padID=notes"'], [v]
    if choice == 15:
        return "password", ['  "users": {', '    "admin": {', f'      "password": "{pw}",', '      "is_admin": true', "    }", "  },"], [pw]
    if choice == 16:
        v = rand(rng, ALNUM, 48)
        return "password", ["$ docker exec -i -t kanidmd kanidmd recover-account admin", "00000000-0000-0000-0000-000000000000 INFO     i [info]: Password reset!",
                            f'00000000-0000-0000-0000-000000000000 INFO     i [info]: new_password: "{v}"'], [v]
    if choice == 17:
        return "password", ["# conf/druid/cluster/_common/common.runtime.properties", "druid.metadata.storage.type=postgresql",
                            "druid.metadata.storage.connector.connectURI=jdbc:postgresql://db.acme.io:5432/druid",
                            "druid.metadata.storage.connector.user=druid", f"druid.metadata.storage.connector.password={pw}"], [pw]
    if choice == 18:
        return "password", ["# pinot-controller.conf", "controller.admin.access.control.factory.class=org.apache.pinot.controller.api.access.BasicAuthAccessControlFactory",
                            "controller.admin.access.control.principals=admin,reader", f"controller.admin.access.control.principals.admin.password={pw}"], [pw]
    if choice == 19:
        return "password", [f"$ rethinkdb --bind all --initial-password '{pw}' --directory /var/lib/rethinkdb/acme", "Running rethinkdb 2.4.4~0bookworm (GCC 12.2.0)..."], [pw]
    if choice == 20:
        v = rand(rng, ALNUM, 12)
        return "password", ["$ sudo pritunl default-password", "[undefined][2026-12-07 10:12:41,118][INFO] Getting default administrator password",
                            "Administrator default password:", '  username: "pritunl"', f'  password: "{v}"'], [v]
    if choice == 21:
        v = rand(rng, HEX, 64)
        return "api_key", [f'$ curl "http://dns.acme.lan:5380/api/zones/list?token={v}"', '{"response":{"zones":[]},"status":"ok"}'], [v]
    if choice == 22:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["$ cat /var/airsonic/airsonic.properties", "MusicFolderScanInterval=1", f"JWTKey={v}", "LastFmEnabled=false"], [v]
    if choice == 23:
        v = rand(rng, ALNUM + "!@#%^*(-_=+)", 50)
        return "api_key", ["# /srv/funkwhale/config/.env", "FUNKWHALE_HOSTNAME=music.acme.io", f"DJANGO_SECRET_KEY={v}", "FUNKWHALE_WEB_WORKERS=2"], [v]
    if choice == 24:
        v = rand(rng, ALNUM, 24)
        return "api_key", [f"$ ./owncast -streamkey {v} -webserverport 8080", 'INFO[2026-12-07T10:14:01Z] Owncast v0.1.3-linux-64bit (a4d53b1)'], [v]
    if choice == 25:
        v = rand(rng, HEX, 64)
        return "password", ["# castopod/.env", 'app.baseURL="https://pods.acme.io/"', 'database.default.hostname="mariadb"',
                            'database.default.username="castopod"', f'database.default.password="{pw}"', f'analytics.salt="{v}"'], [pw, v]
    if choice == 26:
        return "password", [f"$ ./gotosocial --config-path ./config.yaml admin account create --username {user} --email {user}@acme.io --password '{pw}'",
                            "timestamp=\"07/12/2026 10:15:44.191\" func=config.(*ConfigState).Reload level=INFO msg=\"config loaded\""], [pw]
    if choice == 27:
        v = rand(rng, HEX, 64)
        return "api_key", ["# ~/docker/psono/settings.yaml", f"SECRET_KEY: '{rand(rng, ALNUM, 64)}'", f"PRIVATE_KEY: '{v}'", f"PUBLIC_KEY: '{rand(rng, HEX, 64)}'",
                           "ALLOWED_HOSTS: ['*']"], [v]
    if choice == 28:
        return "password", ["# snipe-it/.env", "MAIL_MAILER=smtp", "MAIL_HOST=smtp.acme.io", "MAIL_PORT=587", f"MAIL_USERNAME={user}@acme.io", f"MAIL_PASSWORD={pw}"], [pw]
    if choice == 29:
        return "password", ["<?php", "class DB extends DBmysql {", "   public $dbhost = 'localhost';", "   public $dbuser = 'glpi';", f"   public $dbpassword = '{pw}';",
                            "   public $dbdefault = 'glpi';", "}"], [pw]
    if choice == 30:
        return "password", [f"$ zammad run rails r \"User.find_by(email: '{user}@acme.io').update!(password: '{pw}')\"", "$"], [pw]
    if choice == 31:
        v = rand(rng, ALNUM, 32)
        return "password", ["# include/ost-config.php", f"define('SECRET_SALT','{v}');", "define('DBTYPE','mysql');", "define('DBHOST','localhost');",
                            "define('DBNAME','osticket');", "define('DBUSER','osticket');", f"define('DBPASS','{pw}');"], [v, pw]
    if choice == 32:
        v = base64.b64encode(rng.randbytes(24)).decode()
        return "api_key", ["# typebot/.env", "DATABASE_URL=postgresql://typebot@db:5432/typebot", f"ENCRYPTION_SECRET={v}", "NEXTAUTH_URL=https://bot.acme.io"], [v]
    if choice == 33:
        v = rand(rng, HEX, 64)
        return "api_key", [f"$ curl -X POST https://forms.acme.io/api/cron/surveys -H 'x-api-key: {v}'", '{"message":"Surveys updated"}'], [v]
    if choice == 34:
        v = rand(rng, ALNUM, 32)
        return "api_key", ["# kutt/.env", "PORT=3000", "SITE_NAME=Kutt", "DEFAULT_DOMAIN=s.acme.io", f"JWT_SECRET={v}", "DB_CLIENT=pg"], [v]
    if choice == 35:
        v = rand(rng, B58, 44)
        return "api_key", ["Your paste is https://paste.acme.io/?" + rand(rng, HEX, 16) + "#" + v, "(Hit [Ctrl]+[c] to copy)"], [v]
    if choice == 36:
        v = rand(rng, ALNUM, 32) + "." + rand(rng, ALNUM, 12)
        return "api_key", [f"$ curl -H 'authorization: {v}' -H 'Content-Type: multipart/form-data' \\", "    -F file=@shot.png https://zip.acme.io/api/upload",
                           '{"files":["https://zip.acme.io/u/Xa8Fz.png"]}'], [v]
    if choice == 37:
        v = rand(rng, ALNUM, 64)
        return "api_key", ["$ curl -X POST https://safe.acme.io/api/upload \\", f'    -H "x-api-key: {v}" \\', '    -F "file[]=@backup.tar.gz"'], [v]
    if choice == 38:
        return "password", ["<?php", "$conf['dblayer'] = 'mysqli';", "$conf['db_base'] = 'piwigo';", "$conf['db_user'] = 'piwigo';", f"$conf['db_password'] = '{pw}';",
                            "$conf['db_host'] = 'localhost';"], [pw]
    if choice == 39:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ curl -X GET -H \"Authorization: Token {v}\" \\", '    "https://rows.acme.io/api/database/rows/table/418/?user_field_names=true"'], [v]
    if choice == 40:
        v = rand(rng, ALNUM, 48)
        return "api_key", [f"$ docker run -p 8484:8484 -e GRIST_SESSION_SECRET={v} -e GRIST_SINGLE_ORG=acme -v $PWD/persist:/persist gristlabs/grist"], [v]
    if choice == 41:
        v = rand(rng, ALNUM, 32)
        return "api_key", [f"$ wmill workspace add acme acme https://windmill.acme.io/ --token {v}", "Workspace acme added"], [v]
    if choice == 42:
        return "password", ["kestra:", "  server:", "    basicAuth:", "      enabled: true", f"      username: {user}@acme.io", f"      password: {pw}"], [pw]
    if choice == 43:
        return "password", ["# /etc/salt/master.d/returner.conf", "mysql.host: 'salt.acme.io'", "mysql.user: 'salt'", f"mysql.pass: '{pw}'", "mysql.db: 'salt'", "mysql.port: 3306"], [pw]
    if choice == 44:
        return "password", ["$ sudo foreman-installer --scenario katello \\", f"    --foreman-initial-admin-username=admin --foreman-initial-admin-password={pw}",
                            "Executing: foreman-rake upgrade:run"], [pw]
    if choice == 45:
        v = rand(rng, ALNUM, 40)
        return "api_key", ["# owncast admin: Server setup > Stream keys", "Key                                         Comment", f"{v}    OBS on desk"], [v]
    if choice == 46:
        return "password", [f"$ mysql -h db.acme.io -u glpi --password={pw} glpi < glpi-backup.sql", "$"], [pw]
    v = rand(rng, ALNUM, 40)
    return "api_key", ["# config/psono.yaml", "EMAIL_HOST: 'smtp.acme.io'", f"EMAIL_HOST_USER: '{user}'", f"EMAIL_HOST_PASSWORD: '{v}'", "EMAIL_PORT: 587"], [v]


def forty_fourth_negative_case(rng):
    choice = rng.randrange(36)
    if choice == 0:
        return ["# dashy/conf.yml", "pageInfo:", "  title: Home Lab", "sections:", "  - name: Media", "    items:", "      - title: Jellyfin", "        url: http://media.lan:8096"]
    if choice == 1:
        return ["$ scrutiny-collector-metrics run", f"time=\"2026-12-07T10:00:0{rng.randint(0, 9)}Z\" level=info msg=\"Executing command: smartctl --info --json /dev/sda\" type=metrics"]
    if choice == 2:
        return ["[influxdb2]", "host=localhost", "port=8086", "protocol=http", "org=acme", "bucket=glances", "token=${INFLUX_TOKEN}"]
    if choice == 3:
        return [f"trace {rand(rng, HEX, 32)} span {rand(rng, HEX, 16)} parent {rand(rng, HEX, 16)} duration {rng.randint(1, 999)}ms service=checkout"]
    if choice == 4:
        return [f'{{"traceId":"{rand(rng, HEX, 16)}","id":"{rand(rng, HEX, 16)}","kind":"SERVER","name":"get /api/orders","timestamp":{rng.randint(10**15, 10**16)},"duration":{rng.randint(100, 99999)}}}']
    if choice == 5:
        return ["$ sudo vmq-admin cluster show", "+-------------------+---------+", "|       Node        | Running |", "+-------------------+---------+", "| VerneMQ@127.0.0.1 |  true   |"]
    if choice == 6:
        return ["$ php artisan key:generate", "Application key set successfully."]
    if choice == 7:
        return [f'monitor_status{{monitor_name="shop",monitor_type="http",monitor_url="https://shop.acme.io",monitor_hostname="null",monitor_port="null"}} 1',
                f'monitor_response_time{{monitor_name="shop"}} {rng.randint(20, 900)}']
    if choice == 8:
        return ["# baikal/config/baikal.yaml", "system:", "    configured_version: 0.10.1", "    timezone: Europe/Lisbon", "    card_enabled: true", "    cal_enabled: true"]
    if choice == 9:
        return ["$ sudo cat /etc/radicale/config", "[auth]", "type = htpasswd", "htpasswd_filename = /etc/radicale/users", "htpasswd_encryption = bcrypt"]
    if choice == 10:
        return ["Notification URL list:", "mailto://alerts@acme.io", "json://hooks.acme.io/changedetection"]
    if choice == 11:
        return ["    environment:", "      DOCKER_ENABLE_SECURITY: true", "      SECURITY_ENABLELOGIN: true", "      SECURITY_INITIALLOGIN_USERNAME: admin", "      SYSTEM_DEFAULTLOCALE: en-GB"]
    if choice == 12:
        return ["      - CMD_DB_URL=postgres://hedgedoc@database:5432/hedgedoc", "      - CMD_DOMAIN=pad.acme.io", "      - CMD_URL_ADDPORT=false"]
    if choice == 13:
        return [f"https://pad.acme.io/{rand(rng, ALNUM + '-_', 22)}?both", f"https://pad.acme.io/s/{rand(rng, ALNUM + '-_', 22)}"]
    if choice == 14:
        return [f'{{"code":0,"message":"ok","data":{{"padIDs":["notes","standup-{rng.randint(1, 52)}"]}}}}']
    if choice == 15:
        return ['  "users": {', '    "admin": {', '      "password": "${ADMIN_PASSWORD}",', '      "is_admin": true', "    }", "  },"]
    if choice == 16:
        return ["$ kanidm person get ana --name idm_admin", f"uuid: {uuid.UUID(bytes=rng.randbytes(16))}", "name: ana", "displayname: Ana Souza", "spn: ana@idm.acme.io"]
    if choice == 17:
        return ["druid.metadata.storage.type=postgresql", "druid.metadata.storage.connector.user=druid",
                "druid.metadata.storage.connector.password={\"type\": \"environment\", \"variable\": \"METADATA_STORAGE_PASSWORD\"}"]
    if choice == 18:
        return ["controller.admin.access.control.principals=admin,reader", "controller.admin.access.control.principals.reader.permissions=READ",
                "controller.admin.access.control.principals.reader.tables=orders"]
    if choice == 19:
        return ["r.db('rethinkdb').table('users')", f'{{"id": "admin", "password": false}}', f'{{"id": "ana", "password": true}}']
    if choice == 20:
        return ["$ sudo pritunl reset-password", "[INFO] Resetting administrator password", "Administrator password successfully reset"]
    if choice == 21:
        return [f'{{"response":{{"zones":[{{"name":"acme.lan","type":"Primary","dnssecStatus":"Unsigned","soaSerial":{rng.randint(1, 9999)},"disabled":false}}]}},"status":"ok"}}']
    if choice == 22:
        return ["MusicFolderScanInterval=1", "LastFmEnabled=false", "ServerId=", "PodcastEpisodeRetentionCount=10"]
    if choice == 23:
        return ["FUNKWHALE_HOSTNAME=music.acme.io", "FUNKWHALE_WEB_WORKERS=2", "DJANGO_SETTINGS_MODULE=config.settings.production", "MEDIA_ROOT=/srv/funkwhale/data/media"]
    if choice == 24:
        return [f"INFO[2026-12-07T10:14:0{rng.randint(0, 9)}Z] RTMP is accepting inbound streams on port 1935.", "INFO[2026-12-07T10:14:02Z] Web server is listening on port 8080."]
    if choice == 25:
        return ['app.baseURL="https://pods.acme.io/"', 'media.baseURL="https://cdn.acme.io/"', 'database.default.hostname="mariadb"', 'cache.handler="redis"']
    if choice == 26:
        return [f'timestamp="07/12/2026 10:15:4{rng.randint(0, 9)}.191" func=router.(*Router).Start level=INFO msg="listening on 0.0.0.0:8080"']
    if choice == 27:
        return ["$ docker run psono/psono-server-enterprise:latest python3 ./psono/manage.py generateserverkeys",
                "# Copy paste this content into your settings.yml and replace existing occurrences"]
    if choice == 28:
        return ["MAIL_MAILER=smtp", "MAIL_HOST=smtp.acme.io", "MAIL_PORT=587", "MAIL_ENCRYPTION=tls", "MAIL_FROM_ADDR=assets@acme.io"]
    if choice == 29:
        return ["$ php bin/console glpi:system:check_requirements", "| PHP Parser extension | [OK] |", f"| Memory limit | [OK] {rng.randint(128, 512)}M |"]
    if choice == 30:
        return [f"$ zammad run rails r \"User.find_by(email: 'ana@acme.io').update!(active: true)\"", "$"]
    if choice == 31:
        return ["define('DBTYPE','mysql');", "define('DBHOST','localhost');", "define('DBNAME','osticket');", "define('DBUSER','osticket');", "define('TABLE_PREFIX','ost_');"]
    if choice == 32:
        return [f"Results: https://bot.acme.io/typebots/{rand(rng, string.ascii_lowercase + string.digits, 25)}/results"]
    if choice == 33:
        return [f"git log --oneline", f"{rand(rng, HEX, 7)} Merge pull request #{rng.randint(100, 9999)} from acme/fix-cron", f"{rand(rng, HEX, 7)} Bump next from 14.2.3 to 14.2.5"]
    if choice == 34:
        return [f"https://s.acme.io/{rand(rng, ALNUM, 6)}  →  https://acme.io/blog/2026/12/winter-sale  ({rng.randint(1, 999)} visits)"]
    return ["$ salt '*' test.ping", "web01.acme.io:", "    True", "db01.acme.io:", "    True"]


POOLS = {"first": (secret_case, negative_case), "second": (second_secret_case, second_negative_case),
         "third": (third_secret_case, third_negative_case), "fourth": (fourth_secret_case, fourth_negative_case),
         "fifth": (fifth_secret_case, fifth_negative_case), "sixth": (sixth_secret_case, sixth_negative_case),
         "seventh": (seventh_secret_case, seventh_negative_case), "eighth": (eighth_secret_case, eighth_negative_case),
         "ninth": (ninth_secret_case, ninth_negative_case),
         "tenth": (tenth_secret_case, tenth_negative_case), "eleventh": (eleventh_secret_case, eleventh_negative_case),
         "twelfth": (twelfth_secret_case, twelfth_negative_case),
         "thirteenth": (thirteenth_secret_case, thirteenth_negative_case),
         "fourteenth": (fourteenth_secret_case, fourteenth_negative_case),
         "fifteenth": (fifteenth_secret_case, fifteenth_negative_case),
         "sixteenth": (sixteenth_secret_case, sixteenth_negative_case),
         "seventeenth": (seventeenth_secret_case, seventeenth_negative_case),
         "eighteenth": (eighteenth_secret_case, eighteenth_negative_case),
         "nineteenth": (nineteenth_secret_case, nineteenth_negative_case),
         "twentieth": (twentieth_secret_case, twentieth_negative_case),
         "twenty-first": (twenty_first_secret_case, twenty_first_negative_case),
         "twenty-second": (twenty_second_secret_case, twenty_second_negative_case),
         "twenty-third": (twenty_third_secret_case, twenty_third_negative_case),
         "twenty-fourth": (twenty_fourth_secret_case, twenty_fourth_negative_case),
         "twenty-fifth": (twenty_fifth_secret_case, twenty_fifth_negative_case),
         "twenty-sixth": (twenty_sixth_secret_case, twenty_sixth_negative_case),
         "twenty-seventh": (twenty_seventh_secret_case, twenty_seventh_negative_case),
         "twenty-eighth": (twenty_eighth_secret_case, twenty_eighth_negative_case),
         "twenty-ninth": (twenty_ninth_secret_case, twenty_ninth_negative_case),
         "thirtieth": (thirtieth_secret_case, thirtieth_negative_case),
         "thirty-first": (thirty_first_secret_case, thirty_first_negative_case),
         "thirty-second": (thirty_second_secret_case, thirty_second_negative_case),
         "thirty-third": (thirty_third_secret_case, thirty_third_negative_case),
         "thirty-fourth": (thirty_fourth_secret_case, thirty_fourth_negative_case),
         "thirty-fifth": (thirty_fifth_secret_case, thirty_fifth_negative_case),
         "thirty-sixth": (thirty_sixth_secret_case, thirty_sixth_negative_case),
         "thirty-seventh": (thirty_seventh_secret_case, thirty_seventh_negative_case),
         "thirty-eighth": (thirty_eighth_secret_case, thirty_eighth_negative_case),
         "thirty-ninth": (thirty_ninth_secret_case, thirty_ninth_negative_case),
         "fortieth": (fortieth_secret_case, fortieth_negative_case),
         "forty-first": (forty_first_secret_case, forty_first_negative_case),
         "forty-second": (forty_second_secret_case, forty_second_negative_case),
         "forty-third": (forty_third_secret_case, forty_third_negative_case),
         "forty-fourth": (forty_fourth_secret_case, forty_fourth_negative_case)}
def bare_password(rng, also=""):
    """A password with none of the characters that would end or quote it in a shell, an address or
    a config file (the thirty-third pool's and later), nor any of `also`."""
    pw = plain_password(rng)
    for c in " \\$&%'<>\"@:/{}" + also:
        pw = pw.replace(c, "")
    return pw


# Pools whose screens wrap a line wider than the page, as a terminal does (earlier pools let it run
# off the page's edge, where OCR cannot read it: kept so their figures stay comparable).
WRAPPING_POOLS = {"twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth", "twenty-sixth",
                  "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth", "thirty-first", "thirty-second",
                  "thirty-third", "thirty-fourth", "thirty-fifth", "thirty-sixth", "thirty-seventh",
                  "thirty-eighth", "thirty-ninth", "fortieth", "forty-first", "forty-second", "forty-third", "forty-fourth"}


def page(lines, font, px, theme, mono, wrap=False):
    bg, fg = THEMES[theme]
    # (A terminal breaks a long line at the page's edge, inside a word: `break-all`.)
    layout = "white-space: pre-wrap; word-break: break-all; max-width: 1556px;" if wrap else "white-space: pre;"
    body = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
      body {{ margin: 0; background: {bg}; color: {fg}; }}
      #screen {{ display: inline-block; padding: 18px 22px; font-family: '{font}'; font-size: {px}px; line-height: 1.45;
                {layout} {'' if mono else 'letter-spacing: 0;'} }}
    </style></head><body><div id="screen">{body}</div></body></html>"""


def chrome():
    """Headless Chromium (Debian's, with its driver) at the window and scale screens are drawn at."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--window-size=1600,900", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def shoot(driver, page_html, path):
    """Saves the screen of a page (from ``page``) drawn by ``chrome``'s driver as a PNG at `path`."""
    from selenium.webdriver.common.by import By
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(page_html)
    try:
        driver.get("file://" + f.name)
        driver.find_element(By.ID, "screen").screenshot(path)
    finally:
        os.unlink(f.name)


def render(args):
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    driver = chrome()
    manifest = []
    try:
        for index in range(args.count):
            negative = rng.random() < args.negatives
            secrets, negatives = POOLS[args.pool]
            if negative:
                kind, lines, values = "negative", negatives(rng), []
            else:
                kind, lines, values = secrets(rng)
            family = "mono" if lines[0].startswith(("$", "#", "[", "-----")) or "=" in lines[0] else rng.choice(["sans", "serif", "mono"])
            font = rng.choice(FONTS[family])
            px = rng.randint(args.min_px, args.max_px)
            theme = rng.choice(list(THEMES))
            name = f"s{args.seed}_{index:04d}.png"
            shoot(driver, page(lines, font, px, theme, family == "mono", wrap=args.pool in WRAPPING_POOLS), os.path.join(args.out, name))
            manifest.append(dict(file=name, kind=kind, values=values, lines=lines, font=font, px=px, theme=theme))
    finally:
        driver.quit()
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"rendered {len(manifest)} screens into {args.out}")


def squeeze(text):
    return re.sub(r"\s+", "", text)


def leaked_runs(value, haystack):
    v = squeeze(value)
    return sorted({v[i:i + 8] for i in range(0, max(1, len(v) - 7)) if len(v) >= 8 and v[i:i + 8] in haystack})


def score(args):
    folder = args.score
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    work = tempfile.mkdtemp(prefix="lens-secrets-")
    db = os.path.join(work, "lens.db")
    subprocess.run([args.lens, "import", "--no-progress", "--db", db, folder], check=True, stdout=subprocess.DEVNULL)
    export = os.path.join(work, "all.jsonl")
    subprocess.run([args.lens, "export", "--db", db, "--output", export], check=True, stdout=subprocess.DEVNULL)
    records = {}
    for line in open(export, encoding="utf-8").read().splitlines()[1:]:
        record = json.loads(line)
        for path in record.get("paths", []):
            records[os.path.basename(path["path"] if isinstance(path, dict) else path)] = record
    raw = b""
    for name in os.listdir(work):
        if name.startswith("lens.db"):
            raw += open(os.path.join(work, name), "rb").read()
    raw_text = squeeze(raw.decode("latin-1"))
    # (The same bytes without any screen's SHA-256, to tell a chance match in one from a leak: each
    # stored screen's hash as the export gives it, since a record's byte before a hash may read as a
    # hexadecimal digit, `…\x020c3bb7571f26…`, which a pattern's bounds would miss.)
    hex_hash = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
    unhashed_raw = hex_hash.sub("", raw_text)
    for record in records.values():
        if record.get("sha256"):
            unhashed_raw = unhashed_raw.replace(record["sha256"], "")
    # What every screen shows, squeezed and kept apart: a run found in the database's bytes is no
    # leak of a case when another screen shows it too (words of a seed phrase, `security`).
    # (In any case: the full-text index keeps words in small letters.)
    shown = "\x00".join(squeeze("\n".join(case["lines"])) for case in manifest).lower()
    by_kind = {}
    negatives = false_positives = clean_false_positives = 0
    for case in manifest:
        # The same lines as clean text (no OCR): `lens extract` must mask every value.
        clean = "\n".join(case["lines"])
        found = subprocess.run([args.lens, "extract", "--json"], input=clean, capture_output=True, text=True, check=True).stdout
        secrets = [e for e in map(json.loads, found.splitlines()) if e.get("type") == "secret"]
        blanked = bytearray(clean.encode())  # each secret's bytes made spaces: offsets stay valid
        for entity in secrets:
            blanked[entity["start"]:entity["end"]] = b" " * (entity["end"] - entity["start"])
        kept = blanked.decode(errors="ignore")
        clean_found = bool(secrets)
        record = records.get(case["file"])
        stored = json.dumps(record, ensure_ascii=False) if record else ""
        text = record.get("text", "") if record else ""
        if case["kind"] == "negative":
            negatives += 1
            if clean_found:
                clean_false_positives += 1
                if args.show:
                    print(f"  false positive on clean text {case['file']}: {clean[:200]!r}")
            if re.search(r"\[(card|iban|account|api key|password|PIN|one-time code|seed phrase)\b", text):
                false_positives += 1
                if args.show:
                    print(f"  false positive {case['file']}: {text[:200]!r}")
            continue
        tally = by_kind.setdefault(case["kind"], [0, 0, 0, 0])
        tally[0] += 1
        # Clean text: found when no 8 characters of a value (or a short value whole) are left.
        squeezed_kept = squeeze(kept)
        if all(not leaked_runs(v, squeezed_kept) and (len(squeeze(v)) >= 8 or squeeze(v) not in squeezed_kept) for v in case["values"]):
            tally[2] += 1
        elif args.show:
            print(f"  missed on clean text {case['file']}: {case['lines']}")
        runs = []
        haystack = squeeze(stored)
        own = squeeze("\n".join(case["lines"])).lower()
        for value in case["values"]:
            runs += leaked_runs(value, haystack)
            runs += [run for run in leaked_runs(value, raw_text) if shown.count(run.lower()) <= own.count(run.lower())]
        if runs:
            tally[1] += 1
            if args.show:
                print(f"  leak {case['file']} ({case['font']}, {case['px']} px, {case['theme']}): {case['lines']} -> {text[:300]!r}")
                # Still counted: said apart when every run is found only inside some screen's SHA-256
                # (8 hexadecimal digits of a hex key may match one of the library's hashes by chance).
                unhashed_stored = hex_hash.sub("", haystack)
                for record in records.values():
                    if record.get("sha256"):
                        unhashed_stored = unhashed_stored.replace(record["sha256"], "")
                if not any(run in unhashed_stored or run in unhashed_raw for run in runs):
                    print(f"    (every run, {runs}, only inside a stored content hash: a chance match, not the screen's text)")
        # A value under 8 characters (a code) cannot leak a run of 8: count it kept when the stored
        # text holds it whole, not inside a longer run of letters and digits.
        # (Also with a space OCR or the screen put inside: an authenticator's `158 766`.)
        short = [v for v in case["values"] if len(squeeze(v)) < 8]
        if any(re.search(r"(?<![0-9A-Za-z])" + r" ?".join(map(re.escape, squeeze(v))) + r"(?![0-9A-Za-z])", text) for v in short):
            tally[3] += 1
            if args.show:
                print(f"  short value kept {case['file']} ({case['font']}, {case['px']} px, {case['theme']}): {case['lines']} -> {text[:300]!r}")
    print(f"{'kind':10} {'screens':>8} {'leaked':>8} {'short kept':>11} {'clean text recall':>18}")
    total = leaked = masked = kept_short = 0
    for kind, (n, bad, good, short) in sorted(by_kind.items()):
        print(f"{kind:10} {n:8d} {bad:8d} {short:11d} {good / n:18.3f}")
        total += n
        leaked += bad
        masked += good
        kept_short += short
    print(f"{'all':10} {total:8d} {leaked:8d} {kept_short:11d} {masked / max(total, 1):18.3f}")
    print(f"negative screens: {negatives}, false positives: {false_positives} after OCR, {clean_false_positives} on clean text")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--negatives", type=float, default=0.25, help="share of negative screens")
    parser.add_argument("--min-px", type=int, default=15)
    parser.add_argument("--max-px", type=int, default=26)
    parser.add_argument("--pool", choices=list(POOLS), default="first",
                        help="which phrasings: the first pool (developed on), the second to the thirty-seventh (each added later)")
    parser.add_argument("--out")
    parser.add_argument("--score", help="a rendered folder to import and score")
    parser.add_argument("--lens", default=".build/release/lens")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    if args.score:
        score(args)
    elif args.out:
        render(args)
    else:
        parser.error("give --out to render or --score to score")


if __name__ == "__main__":
    sys.exit(main())
