# Generates (run from the repository root:  python3 modules/auth/tools/common_passwords.py) modules/auth/src/main/resources/io/qubiq/auth/common-passwords.txt from well-known patterns.
words = """password passw0rd p@ssword p@ssw0rd pass pa55word passwort motdepasse contrasena wachtwoord
welcome welkom willkommen bienvenue letmein qwerty qwertz azerty admin administrator root toor superuser
sysadmin default guest test tester testing user login changeme change secret private master access
dragon monkey football baseball soccer hockey iloveyou sunshine princess shadow superman batman trustno1
hello freedom whatever starwars computer internet michael jennifer jordan charlie thomas daniel
summer winter spring autumn monday friday january december love lovely flower killer hunter ranger
abc abcd abcde abcdef qubiq gateway siemens factory plant operator engineer company office service
support system server network manager control scada plc opcua mqtt historian database oracle
postgres mysql mongodb questdb cisco linux windows ubuntu raspberry pi changeit letmein default1
zaq12wsx 1q2w3e4r 1qaz2wsx qazwsx asdfgh zxcvbn samsung apple google microsoft mustang
tigger cheese pepper ginger maggie buster coffee cookie chocolate banana orange purple
matrix ninja master1 hello1 welcome1 secure security temp temporary newpassword mypassword
passpass adminadmin rootroot useruser""".split()
suffixes = ["", "1", "12", "123", "1234", "12345", "123456", "1234567", "12345678", "123456789",
            "!", "1!", "12!", "123!", "1234!", "!!", "01", "0", "00", "007", "69", "99", "@123", "#1",
            "@1", "_123", "-123", ".123", "123123", "111", "1111", "321", "4321", "54321", "!@#", "!@#$"]
suffixes = ["", "1", "12", "123", "1234", "12345", "123456", "!", "1!", "123!", "01", "@123", "123123", "2024",
            "2025", "2026", "2027"]
prefixes = ["", "my"]
out = set()
for w in words:
    for p in prefixes:
        for s in suffixes:
            out.add(p + w + s)
    out.add(w + w)
    out.add(w + w + "1")
    out.add(w[::-1])
# digit runs
digits = "1234567890"
for n in range(4, 21):
    out.add((digits * 3)[:n])
    out.add(("0987654321" * 3)[:n])
    out.add(("0123456789" * 3)[:n])
    out.add(("9876543210" * 3)[:n])
for d in "0123456789abcdefghijklmnopqrstuvwxyz!*.-":
    for n in range(4, 21):
        out.add(d * n)
for a in ["12", "123", "1234", "abc", "ab", "qwe", "asd", "xyz", "aa", "11", "01", "69", "q1", "a1"]:
    for n in range(2, 9):
        out.add(a * n)
# keyboard walks and their prefixes
walks = ["qwertyuiopasdfghjklzxcvbnm", "qwertzuiopasdfghjklyxcvbnm", "azertyuiopqsdfghjklmwxcvbn",
         "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p", "qazwsxedcrfvtgbyhnujmikolp", "1q2w3e4r5t6y7u8i9o0p",
         "q1w2e3r4t5y6u7i8o9p0", "zaq12wsxcde34rfvbgt56yhnmju78ik", "asdfghjklqwertyuiop", "zxcvbnmasdfghjkl",
         "!qaz@wsx#edc$rfv", "1qazxsw23edcvfr4", "poiuytrewqlkjhgfdsamnbvcxz", "mnbvcxzlkjhgfdsapoiuytrewq",
         "abcdefghijklmnopqrstuvwxyz", "zyxwvutsrqponmlkjihgfedcba", "a1b2c3d4e5f6g7h8i9j0",
         "qweasdzxc", "qweasdzxcrtyfghvbn", "147258369", "159357159357", "741852963", "789456123",
         "123qweasdzxc", "1234qwerasdfzxcv", "qwer1234asdf5678", "12qwaszx34erdfcv"]
for w in walks:
    for n in range(6, len(w) + 1):
        out.add(w[:n])
        for s in ["1", "!", "123"]:
            out.add(w[:n] + s)
# year/date-like
for y in range(1950, 2031):
    out.add("password" + str(y))
    out.add(str(y) * 2)
out = sorted(x for x in out if x)
with open("modules/auth/src/main/resources/io/qubiq/auth/common-passwords.txt", "w") as f:
    f.write("# Common passwords, one a line, lower case; compared case-insensitively. Built from well-known\n")
    f.write("# patterns (frequent words with usual prefixes and suffixes, digit runs, repeated characters,\n")
    f.write("# keyboard walks) by modules/auth/tools/common_passwords.py. Lines starting with # are comments.\n")
    for x in out:
        f.write(x.lower() + "\n")
print(len(out))
