"""How to play here, in a few paragraphs; the scores are the server's own rules.

The review's grades come from the thresholds that grade (``review.grades_line``).
"""

from __future__ import annotations

from typing import Final

from bot.rules import HouseRules

from .panel import Panel
from .review import grades_line

__all__ = ["HELP_LINES", "help_panel", "scoring_line"]

HELP_LINES: Final = (
    "New to euchre? **/euchre learn** plays a guided first deal with you, privately.",
    "**/euchre new** opens a table in this channel. Click **Join** to sit down, or choose "
    "a seat to sit opposite your partner; partners sit in alternate seats.",
    "The host fills empty seats with **Add computer** and clicks **Start** when every seat "
    "is taken.",
    "Click **Your hand** on the table (or type **/euchre hand**): your cards arrive in a "
    "message only you can see, with a button for every move you may make now. Cards you "
    "can't play are greyed out, and trump cards are blue. Those buttons last 15 minutes, "
    "as Discord allows: **↻ Refresh** (or **Your hand** again) gives fresh ones.",
    "Bidding: in the first round **Order up** makes the upcard's suit trump (the dealer "
    "picks it up); in the second round name any other suit. **Alone** plays without your "
    "partner for more points.",
    "Play: follow the suit led if you can. The jack of trump (right bower) is the highest "
    "trump, then the other jack of the same colour (left bower), which counts as trump.",
    "During a game, a member watching can click **Take a computer's seat** (or choose one "
    "in the menu) to play it, where the server allows it. A player who let their turns run "
    "out gets their seat back with **Take my seat back**.",
    "**/euchre rules show** shows the house rules in plain words (each table's **Rules** "
    "button shows its own). **/euchre leave** leaves the table (during a game a computer "
    "takes over your seat), and the host, or a server admin, can close it with "
    "**/euchre abort**.",
    "**/euchre me** keeps your own preferences, on every server: when your turn mentions "
    "you, a lone legal card that plays itself, four-colour suits. **/euchre privacy hide** "
    "keeps your name and page off the league's web pages.",
    "League: games with a person in every seat, under the server's rules, are ranked. "
    "**/euchre standings** shows the table of ratings, **/euchre stats** and "
    "**/euchre history** a player's, **/euchre replay** steps through a finished game "
    "with every hand shown, and **/euchre export** gives its record as a file. "
    "**/euchre season settings** shows the league's settings.",
    "**/euchre daily** plays the server's deal of the day, privately, once a day: you and "
    "an expert partner against two experts, your result against par (the expert in your "
    "seat). **/euchre daily show:leaderboard** ranks today's results with everyone's streak.",
    "Server admins (Manage Server, or the role the server names) change the house rules "
    "with **/euchre rules preset** and **/euchre rules set**, the server's settings with "
    "**/euchre settings set**, and the league with **/euchre season start**, **end** and "
    "**settings**; a table keeps the rules it opened with. A host may pick other rules "
    "for one table with the options of **/euchre new**, where the server allows it (the "
    "game is then casual).",
)


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def scoring_line(rules: HouseRules) -> str:
    """What a deal scores under ``rules``: made, a march, a loner, a euchre."""
    goal = (
        f"After {rules.deals_per_game} deals the higher score wins."
        if rules.deals_per_game is not None
        else f"The first partnership to {rules.target_score} wins."
    )
    euchre = f"they are **euchred**: the defenders score {_points(rules.points_euchre)}"
    if rules.defend_alone != "never":
        euchre += f" ({_points(rules.points_lone_defender_euchre)} for a lone defender)"
    if rules.points_super_euchre is not None:
        euchre += f", or {_points(rules.points_super_euchre)} if the makers take no trick"
    return (
        f"Scoring here: the makers of trump score {_points(rules.points_made)} for most of "
        f"the tricks, {_points(rules.points_march)} for all of them (a **march**), and "
        f"{_points(rules.points_lone_march)} for a march played alone (a **loner**). If the "
        f"makers take fewer than half the tricks, {euchre}. {goal}"
    )


def help_panel(rules: HouseRules | None = None) -> Panel:
    """The help text, its scoring line from the server's ``rules`` (default: the defaults)."""
    lines = list(HELP_LINES)
    lines.insert(5, scoring_line(rules if rules is not None else HouseRules()))
    lines.insert(8, grades_line())
    return Panel(
        title="Euchre: how to play here",
        description="\n\n".join(lines),
        colour="blurple",
    )
