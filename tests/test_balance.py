"""``zcards balance``: the lab's games, its figures, card changes, and the report read back
as JSON, text and HTML."""

from __future__ import annotations

import json

import pytest
from lxml import html
from support.browser import artefact, browser_page
from support.processes import run, zcards_argv

from zcards.cards.normalise import read_card_file
from zcards.cli import main
from zcards.errors import UsageError
from zcards.game.cards import CardIndex
from zcards.game.definition import STARTING_FOOD, STARTING_HAND
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.sim.ablation import ablations
from zcards.sim.actions import ActionKind
from zcards.sim.balance_html import render_balance
from zcards.sim.balance_report import card_use, plan_balance, ranked_ablations
from zcards.sim.balance_text import format_balance
from zcards.sim.changes import apply_changes, other_cards, parse_change, swap_cards
from zcards.sim.decklists import load_decks, read_decks
from zcards.sim.figures import PLAYED
from zcards.sim.game import play_game
from zcards.sim.report import difference, rate

CHANGES = ("Shambler.power=9", "Gross Ghoul.power=1")  # a strong change and one that is none


def _run(games: int, jobs: int) -> tuple[dict, str]:
    """A run of the starter decks with ``CHANGES``, as JSON, and its HTML page."""
    report = plan_balance(read_decks(starter_decks()), CHANGES, games=games, seed=3).run(jobs)
    return json.loads(json.dumps(report.to_json())), render_balance(report)


@pytest.fixture(scope="module")
def runs() -> dict:
    """A run of 4 games per pairing on one process, as JSON, and its HTML page."""
    report, page = _run(4, 1)
    return {1: report, "html-1": page}


def test_newcombe_difference_matches_known_values():
    """Newcombe (1998), method 10: 56/70 - 48/80 and 9/10 - 3/10."""
    assert difference(rate(56, 70), rate(48, 80)) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert difference(rate(9, 10), rate(3, 10)) == pytest.approx((0.1705, 0.8090), abs=1e-4)
    low, high = difference(rate(5, 10), rate(5, 10))
    assert low < 0 < high and low == pytest.approx(-high)


def test_the_same_seed_gives_the_same_report_on_any_number_of_processes():
    """One game per pairing is enough: its 48 games are shared out between the processes."""
    assert _run(1, 1) == _run(1, 2)


def test_the_same_seed_gives_the_same_report_whatever_the_string_hashes(tmp_path):
    """Worker processes started afresh (spawn, forkserver) hash strings differently: no
    choice of the players may follow the order of a set."""
    reports = {
        run(
            zcards_argv("balance", "-n", "2", "-j", "1", "--format", "json"),
            tmp_path,
            env={"PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(reports) == 1 and json.loads(reports.pop())["games"] == 24


def test_every_pair_of_starter_decks_plays_in_both_seats_under_both_setups(runs):
    report = runs[1]
    decks = sorted(path.stem for path in starter_decks())
    assert report["decks"] == decks and report["games_per_pair"] == 4
    assert report["games"] == 4 * 6 * 2 * 4  # versions x ordered pairs x setups x games
    base = report["variants"][0]
    assert base["name"] == "as printed" and base["games"] == 6 * 2 * 4
    assert len(base["matchups"]) == 6
    for m in base["matchups"]:
        assert m["seat1"]["games"] == m["seat2"]["games"] == 4 and m["win"]["games"] == 8
        assert m["win"]["wins"] == m["seat1"]["wins"] + m["seat2"]["wins"]
        low, high = m["win"]["low"], m["win"]["high"]
        assert 0 <= low <= m["win"]["rate"] <= high <= 1
        mirror = next(
            x for x in base["matchups"] if (x["deck"], x["opponent"]) == (m["opponent"], m["deck"])
        )
        assert m["win"]["wins"] + mirror["win"]["wins"] + m["turn_caps"] == 8
    equal = base["turn_order"]["equal food"]
    assert equal["first_player"]["games"] == 24
    assert equal["first_food"] == equal["second_food"] == STARTING_FOOD
    assert base["turn_order"]["bidding"]["first_food"] <= STARTING_FOOD
    by_deck = base["equal_food_by_deck"]
    assert sorted(by_deck) == decks
    assert sum(d["first"]["wins"] for d in by_deck.values()) == equal["first_player"]["wins"]
    assert all(d["first"]["games"] == d["second"]["games"] == 8 for d in by_deck.values())
    assert report["players"]["strategy"] == "greedy" and "bids 6-9" in report["players"]["bidding"]


def test_per_card_figures_add_up(runs):
    base = runs[1]["variants"][0]
    in_decks = {(p.stem, line.split(" ", 1)[1]) for p in starter_decks() for line in _card_lines(p)}
    assert {(card["deck"], card["name"]) for card in base["cards"]} == in_decks
    for card in base["cards"]:
        deck, drawn = card["in_deck"], card["drawn"]
        assert deck["games"] == 16  # each deck plays 16 games as written
        assert card["opening_hand"]["games"] <= drawn["games"] <= deck["games"]
        assert drawn["games"] + card["not_drawn"]["games"] == deck["games"]
        assert drawn["wins"] + card["not_drawn"]["wins"] == deck["wins"]
        assert card["ability_used_games"] <= card["ability_uses"]
        label = f"{card['name']} ({card['deck']})"
        assert (card["played"]["games"] == 0) == (label in base["never_played"])
        assert card["drawn_minus_deck"] == pytest.approx(
            drawn["rate"] - deck["rate"] if drawn["games"] else 0.0
        )
        low, high = card["drawn_gap_interval"]
        assert card["enough_games"] == (min(drawn["games"], card["not_drawn"]["games"]) >= 20)
    order = [
        (not card["enough_games"], -max(low, -high, 0))
        for card in base["cards"]
        for low, high in [card["drawn_gap_interval"]]
    ]
    assert order == sorted(order), "outliers first, among cards seen in enough games"


def test_a_change_replays_the_same_games_and_reports_what_moved(runs):
    report = runs[1]
    names = [v["name"] for v in report["variants"]]
    assert names == ["as printed", *CHANGES, " and ".join(CHANGES)]
    base, strong, none = report["variants"][:3]
    assert none["matchups"] == base["matchups"] and none["cards"] == base["cards"]
    moves = {m["variant"]: m for m in report["moves"]}
    assert not any(m["significant"] or m["change"] for m in moves[CHANGES[1]]["matchups"])
    moved = moves[CHANGES[0]]["matchups"]
    assert any(m["significant"] for m in moved)
    for m in moved:
        low, high = m["interval"]
        assert low <= m["change"] <= high
        assert m["significant"] == (low > 0 or high < 0)
        assert m["change"] == pytest.approx(m["after"]["rate"] - m["before"]["rate"])
    assert strong["by_deck"]["horde-starter"]["rate"] > base["by_deck"]["horde-starter"]["rate"]
    played = {m["what"]: m for m in moves[CHANGES[0]]["cards_played"]}
    for card in base["cards"]:
        move = played[f"{card['name']} ({card['deck']})"]
        assert move["before"]["wins"] == card["played"]["games"]
        assert move["before"]["games"] == card["in_deck"]["games"]


def test_the_html_page_shows_the_grid_the_bars_and_the_changes(runs):
    report, page = runs[1], html.fromstring(runs["html-1"])
    rows = page.xpath("//table[@id='turn-order-by-deck']/tbody/tr/th")
    assert [th.text_content() for th in rows] == report["decks"]
    assert not page.xpath("//script") and "http://" not in runs["html-1"].replace(
        "http://www.w3.org/2000/svg", ""
    )
    grid = page.get_element_by_id("matchups")
    decks = report["decks"]
    assert [th.text_content() for th in grid.xpath("thead/tr/th")][1:] == [*decks, "overall"]
    base = report["variants"][0]
    for row in grid.xpath("tbody/tr"):
        deck = row.xpath("th")[0].text_content()
        cells = row.xpath("td")
        for opponent, cell in zip(decks, cells, strict=False):
            if opponent == deck:
                assert cell.text_content() == "-"
                continue
            m = next(x for x in base["matchups"] if (x["deck"], x["opponent"]) == (deck, opponent))
            assert float(cell.get("data-rate")) == pytest.approx(m["win"]["rate"], abs=1e-4)
            assert cell.text_content().startswith(f"{100 * m['win']['rate']:.1f}%")
    bars = page.xpath("//svg[@id='card-bars']/g[@class='card']")
    assert [g.get("data-card") for g in bars] == [c["name"] for c in base["cards"]][: len(bars)]
    for group, card in zip(bars, base["cards"], strict=False):
        width = float(group.xpath("rect")[0].get("width"))
        assert width == pytest.approx(card["drawn"]["rate"] * 420, abs=0.1)
        interval = group.xpath("g[@class='interval']/line")[0]
        assert float(interval.get("x2")) - float(interval.get("x1")) == pytest.approx(
            (card["drawn"]["high"] - card["drawn"]["low"]) * 420, abs=0.2
        )
    sections = page.xpath("//section[@class='change']")
    assert [s.get("data-change") for s in sections] == names_of_moves(report)
    dots = sections[0].xpath(".//g[@class='move']")
    assert len(dots) == 3 + 3 + 1  # the matchups, the decks and the turn order
    assert any(g.get("data-significant") == "true" for g in dots)


def names_of_moves(report: dict) -> list[str]:
    return [m["variant"] for m in report["moves"]]


def test_text_report_states_players_grid_turn_order_and_cards(capsys):
    main(["balance", "--games", "2", "--jobs", "1"])
    out = capsys.readouterr().out
    for words in ("players (greedy, both):", "bidding: bids 6-9", "blocking:", "matchups,"):
        assert words in out
    assert "turn order with the opening food held equal (both 10" in out
    assert "that measures the bid, not the turn order" in out
    assert "never played:" in out and "horde-starter" in out


def test_changes_are_parsed_with_clear_errors():
    names = ["Gross Ghoul", "Trucker Earl"]
    assert parse_change("gross ghoul.POWER=3", names).value == 3
    assert parse_change("Trucker Earl.keywords=Fast, Tough", names).value == ("Fast", "Tough")
    assert parse_change("Trucker Earl.requirements=2 Fast", names).value == {"Fast": 2}
    for spec, words in (
        ("Gross Ghoul", "CARD.FIELD=VALUE"),
        ("Gross Ghul.power=3", "no card called 'Gross Ghul'"),
        ("Gross Ghoul.colour=red", "cannot change 'colour'"),
        ("Gross Ghoul.power=-1", "whole number"),
        ("Gross Ghoul.requirements=lots", "requirement"),
    ):
        with pytest.raises(UsageError, match=words):
            parse_change(spec, names)


def test_a_change_reaches_every_copy_and_its_text_is_read_again():
    decks = read_decks(starter_decks())
    names = sorted({card.name for deck in decks for card in deck.cards})
    changes = [parse_change("Canned Food.cost=5", names), parse_change("Shambler.text=", names)]
    changed = apply_changes(decks, changes)
    canned = [c for deck in changed for c in deck.cards if c.name == "Canned Food"]
    assert len(canned) == 4 and {c.cost for c in canned} == {5}
    assert all(c.text == "" for deck in changed for c in deck.cards if c.name == "Shambler")
    assert [c for deck in decks for c in deck.cards if c.name == "Canned Food"][0].cost != 5


def test_a_game_keeps_its_per_card_figures_and_may_hold_the_food_equal():
    decks = load_decks([])
    result = play_game(decks, 5)
    names = set(result.players)
    for player, figures in zip(result.players, result.cards, strict=True):
        assert len(figures.opening) <= STARTING_HAND and figures.opening <= figures.drawn
        mine = [a for a in result.actions if a.player == player]
        assert {a.card for a in mine if a.kind in PLAYED} == figures.played
        assert {a.card for a in mine if a.kind is ActionKind.DRAW} <= figures.drawn
    assert any(n for f in result.cards for _, n in f.used), "some text is used in a game"
    equal = play_game(decks, 5, equal_food=True)
    assert not [a for a in equal.actions if a.kind is ActionKind.BID]
    assert equal.first_player == equal.players[0] and set(equal.players) == names
    assert equal.opening_food == (STARTING_FOOD, STARTING_FOOD)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--deck", str(starter_decks()[0])], "at least two decks"),
        (["--change", "Nobody.power=2"], "no card called 'Nobody'"),
        (["--html", "no-such-folder/report.html"], "its folder does not exist"),
    ],
)
def test_bad_input_is_a_usage_error(args, words, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["balance", "--games", "1", *args])
    assert stopped.value.code == 2 and words in capsys.readouterr().err


def test_the_page_is_written_and_change_labels_are_escaped(tmp_path, capsys):
    page = tmp_path / "report.html"
    spec = "Shambler.text=<script>alert(1)</script>"
    main(["balance", "-n", "1", "-j", "1", "--change", spec, "--html", str(page)])
    assert "<script>" in capsys.readouterr().out  # the terminal shows the change as typed
    text = page.read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def _card_lines(path):
    return [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_a_second_card_file_is_compared_like_the_same_change(tmp_path):
    """The bundled set with Shambler at power 9, as a card file, plays the very games
    '--change Shambler.power=9' plays."""
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines(keepends=True)
    cells = next(line for line in lines if line.startswith("Shambler\t")).split("\t")
    cells[6] = "9"  # Power
    changed = tmp_path / "stronger-shambler.txt"
    changed.write_text(
        "".join("\t".join(cells) if line.startswith("Shambler\t") else line for line in lines),
        encoding="utf-8",
    )
    decks = read_decks(starter_decks())
    others = [("file", swap_cards(decks, other_cards(changed), str(changed)))]
    report = plan_balance(decks, ["Shambler.power=9"], games=2, others=others).run(1)
    as_changed, as_file = report.to_json()["variants"][1:]
    assert as_changed["matchups"] == as_file["matchups"] and as_changed["cards"] == as_file["cards"]
    partial = tmp_path / "partial.txt"
    partial.write_text("".join(line for line in lines if not line.startswith("Shambler\t")))
    with pytest.raises(UsageError, match="no card called 'Shambler'"):
        swap_cards(decks, other_cards(partial), str(partial))


def test_how_games_ended_adds_up_per_matchup_and_seat(runs):
    for m in runs[1]["variants"][0]["matchups"]:
        both, (first, second) = m["endings"], m["seat_endings"]
        for ended, games in ((both, m["win"]["games"]), (first, 4), (second, 4)):
            assert (
                sum(ended["lost"].values()) + sum(ended["beat"].values()) + ended["turn_caps"]
                == games
            )
            assert set(ended["lost"]) | set(ended["beat"]) <= {"no survivors", "empty deck"}
        assert sum(both["beat"].values()) == m["win"]["wins"]
        assert both["turn_caps"] == m["turn_caps"]


def test_paired_games_say_whether_a_change_changed_anything(runs):
    moves = {m["variant"]: m for m in runs[1]["moves"]}
    games_as_printed = runs[1]["variants"][0]["games"]
    none, strong = moves[CHANGES[1]], moves[CHANGES[0]]
    assert none["paired_games"] == strong["paired_games"] == games_as_printed
    assert none["changes_nothing"] and none["winner_changed"] == none["game_changed"] == 0
    assert 0 < strong["winner_changed"] <= strong["game_changed"] <= games_as_printed
    assert not strong["changes_nothing"]


def test_the_text_report_says_no_game_changed_and_how_games_ended(capsys):
    main(["balance", "--games", "2", "--jobs", "1", "--change", "Gross Ghoul.power=1"])
    out = capsys.readouterr().out
    assert "no game changed: all 24 paired games had the same winner" in out
    assert "how games ended" in out and "in seat 1: lost" in out
    assert "within chance at this number of games" not in out


def test_contradictory_changes_are_refused(capsys):
    decks = read_decks(starter_decks())
    for twice in (("Sprinter.power=5", "Sprinter.power=0"), ("Sprinter.cost=1", "sprinter.COST=1")):
        with pytest.raises(UsageError, match="both change Sprinter's"):
            plan_balance(decks, twice, games=1)


def test_a_text_change_and_the_keyword_column_it_leaves():
    decks = read_decks(starter_decks())
    dropped = plan_balance(
        decks, ["Gross Ghoul.text=Gross Ghoul has power 2 while you control 5 zombies."], games=1
    )
    assert len(dropped.notes) == 1 and "no longer says Tough" in dropped.notes[0]
    said = plan_balance(decks, ["Shambler.text=Fierce. Slow and patient."], games=1)
    assert "keywords are now Fierce" in said.notes[0]
    changed = said.plan.variants[1]
    assert {c.keywords for deck in changed for c in deck.cards if c.name == "Shambler"} == {
        ("Fierce",)
    }


def test_ablations_take_one_thing_out_everywhere_and_rank_what_moved():
    decks = read_decks(starter_decks())
    keywords = dict(ablations(decks, "keywords"))
    assert "no Fast" in keywords
    for card in (c for deck in keywords["no Fast"] for c in deck.cards):
        assert "Fast" not in card.keywords and "Fast" not in card.requirements
    vanilla = dict(ablations(decks, "cards"))["Gross Ghoul as a vanilla card"]
    ghoul = next(c for deck in vanilla for c in deck.cards if c.name == "Gross Ghoul")
    assert (ghoul.keywords, ghoul.symbols, ghoul.text, ghoul.power) == ((), (), "", 1)
    report = plan_balance(decks[:2], games=2, ablate="keywords").run(1)
    found = report.to_json()
    assert found["ablation"] == "keywords" and len(found["moves"]) == len(
        {k for deck in decks[:2] for c in deck.cards for k in c.keywords}
    )
    ranked = ranked_ablations(report)
    sizes = [(m.changes_nothing, -abs(move.change)) for m, move in ranked]
    assert sizes == sorted(sizes)
    text = format_balance(report)
    for moves, _ in ranked:
        assert (f"{moves.variant}: changes nothing" in text) == moves.changes_nothing


def test_card_use_says_what_the_players_could_use():
    index = CardIndex(read_card_file(BUNDLED_SET))
    uses = {info.name: card_use(info) for info in index.infos()}
    assert uses["Paramedic Joe"] == "choice"  # the Medic symbol
    assert uses["Canned Food"] == "choice"  # a one-shot item
    assert uses["Gross Ghoul"] == "always"  # a power row while the condition holds
    assert uses["Trucker Earl"] in ("", "always")


@pytest.mark.slow
def test_the_html_report_has_captions_axes_and_fits_a_desktop_browser(tmp_path, chromium):
    report = plan_balance(read_decks(starter_decks()), ["Shambler.power=9"], games=3).run(1)
    page_file = tmp_path / "balance.html"
    page_file.write_text(render_balance(report), encoding="utf-8")
    tree = html.fromstring(page_file.read_text(encoding="utf-8"))
    assert all(t.xpath("caption") for t in tree.xpath("//table")), "every table names its measure"
    ticks = tree.xpath("//svg[@id='card-bars']/g[@class='tick']/text")
    assert [t.text for t in ticks] == ["0", "25", "50", "75", "100"]
    assert tree.xpath("//svg[@id='card-bars']//line[@class='whisker']")
    with browser_page(chromium) as page:
        page.goto(page_file.as_uri())
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('svg, #matchups, #endings')].map(e => {
                const r = e.getBoundingClientRect(); return [e.id, r.right];})"""
        )
        page.screenshot(path=str(artefact(tmp_path, "balance-1280x800.png")), full_page=True)
        assert page.problems == []
    assert all(right <= 1280 for _, right in boxes), boxes
