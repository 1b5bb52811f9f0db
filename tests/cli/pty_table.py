"""Runs a command with its stdout on a pseudo-terminal of a given width (TIOCSWINSZ, the
size a terminal emulator sets) and checks what it drew: no line wider than the terminal, in
display columns counted independently of kepoch (Python's unicodedata: East Asian Wide and
Fullwidth 2, nonspacing/enclosing marks and format characters 0), and optionally that the
timeline's replica rows start their drawing ("|") at one column.

  pty_table.py WIDTH OUT [--timeline] -- ARGS...

Writes what was drawn (\\r\\n as \\n) to OUT; prints the widest line's width; exits 1 with a
reason on a failed check, 2 when the command exits above 1.
"""
import fcntl, os, pty, struct, subprocess, sys, termios, unicodedata


def columns(text):
    n = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me") or (unicodedata.category(ch) == "Cf" and ch != "\u00ad"):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def main():
    width, out = int(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    timeline = "--timeline" in rest[: rest.index("--")]
    args = rest[rest.index("--") + 1 :]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, width, 0, 0))
    env = dict(os.environ, NO_COLOR="1")
    env.pop("COLUMNS", None)  # the terminal's size must be what decides
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    drawn = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    rc = p.wait()
    text = drawn.decode("utf-8", "replace").replace("\r\n", "\n")
    open(out, "w", encoding="utf-8").write(text)
    if rc > 1:
        sys.exit(f"FAIL: exit {rc}: {' '.join(args)}")
    lines = text.splitlines()
    if not lines:
        sys.exit(f"FAIL: nothing drawn: {' '.join(args)}")
    widest = max(columns(l) for l in lines)
    if widest > width:
        over = [l for l in lines if columns(l) > width][:3]
        sys.exit(f"FAIL: a line of {widest} columns on a terminal of {width}: {' '.join(args)}\n" + "\n".join(over))
    if timeline:
        # Replica rows: "  NAME  |drawing|  ...": the "|" at one display column for all.
        rows = [l for l in lines if "|" in l and l.count("|") >= 2 and not l.lstrip().startswith("-")]
        starts = {columns(l[: l.index("|")]) for l in rows}
        if len(rows) < 2 or len(starts) != 1:
            sys.exit(f"FAIL: timeline rows not aligned (columns {sorted(starts)}): {' '.join(args)}\n" + "\n".join(rows))
    print(widest)


main()
