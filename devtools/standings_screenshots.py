"""The standings page's screenshots in docs/screenshots/: an eight-player Battle Line round robin,
one player withdrawn after a game (their games annulled), at a desktop's 1280x900 and a phone's
390x844, and on a phone in Chinese. The page is the one a server answers
(chalicelib.pages.standings over the director's standings of a hand-played tournament: no server
needed), taken by Debian's Chromium headless (as devtools/board_screenshots.py sizes them).

Run: python -m devtools.standings_screenshots
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from pathlib import Path

from chalicelib.kernel.i18n import speaking
from chalicelib.pages.standings import standings_page
from chalicelib.tournaments import director
from devtools.dynamodb_local import ROOT

OUT = ROOT / "docs" / "screenshots"
NAMES = ["Ann Lee", 'Smith, "Ace" Jr.', "王芳", "Nguyễn Thị Hồng", "佐藤花子", "Bob", "Catherine Montgomery-Wright",
         "Dan"]
SHOTS = [("standings-1280.png", "en", (1280, 900)), ("standings-390.png", "en", (390, 844)),
         ("standings-zh-Hans-390.png", "zh-Hans", (390, 844))]


def played() -> dict:
    """A round robin played with a seeded die: a game's winner takes 5 and holds 3 to 5 flags, its
    loser the flags it held; the last seed withdraws after round one."""
    t = director.new_tournament("t_spring", "Spring Battle Line Cup", "battleline", "round_robin", {},
                                organiser="p0", created_at="2026-03-01T00:00:00Z", seed=1, forfeit_points=5.0)
    for number, name in enumerate(NAMES):
        director.join(t, f"p{number}", name)
    director.start(t, {})
    dice = random.Random(4)
    while t["status"] == "running":
        for pairing in director.current_pairings(t):
            if pairing["points"] is None:
                held = [dice.randint(3, 5), dice.randint(0, 4)]
                if dice.random() < 0.5 + (pairing["second"] - pairing["first"]) / 20:
                    pairing["points"], pairing["flags"] = [5.0, float(held[1])], held
                else:
                    pairing["points"], pairing["flags"] = [float(held[1]), 5.0], held[::-1]
        if t["round"] == 1:
            director.withdraw(t, f"p{len(NAMES) - 1}")
        director.next_round(t)
    rows = director.standing_rows(t)
    order = director.tie_break_order(t)
    return {"tournament_id": t["id"], "name": t["name"], "game": t["game"], "format": t["format"],
            "status": t["status"], "round": t["round"], "rounds": t["rounds"], "tie_break": order[0],
            "tie_break_order": order, "standings": rows, "crosstable": director.crosstable(t, rows), "html_url": ""}


def main() -> None:
    standings = played()
    with tempfile.TemporaryDirectory() as folder:
        for name, language, (width, height) in SHOTS:
            with speaking(language):
                page = Path(folder) / f"{language}.html"
                page.write_text(standings_page(standings).html())
            subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            f"--screenshot={OUT / name}", f"--window-size={width},{height}", page.as_uri()],
                           check=True, capture_output=True, timeout=120)
            print("wrote", OUT / name)


if __name__ == "__main__":
    main()
