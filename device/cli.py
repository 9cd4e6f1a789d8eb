"""The ``senet`` command.

    senet rules list                  variant names and what they are
    senet rules show VARIANT          the rules with their IDs
    senet rules moves < queries.jsonl legal moves, one JSON line per position
    senet rules play VARIANT --seed N a random game's record
    senet board mat --out DIR [--variant V]   the printable mat (PNG, PDF, mat.json)
    senet vision read --calibrate START IMAGE...   what the camera reads in pictures
    senet referee replay --variant V --calibrate START FRAMES_DIR   a recorded game's events
    senet run [--variant V] [--camera auto]   the companion (simulation where there is no Pi)
    senet log --store FILE list|show ID|export ID|import FILE   the matches it kept
    senet config check [FILE]         check the configuration and say what it sets
    senet doctor [--config FILE] [--camera C] [--out DIR]   is this machine ready? (exit 0 all well, 1 problems)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, NoReturn, TextIO

from senet.device import log_command
from senet.engine.playout import random_game
from senet.engine.query import answer_lines
from senet.engine.throws import DiceThrows, StickThrows, throw_odds
from senet.engine.variants import VARIANTS, Variant, find_variant

#: Where the Pi's installation keeps the configuration (``systemd/install.sh`` writes it).
SYSTEM_CONFIG = Path("/etc/senet/companion.toml")

#: How ``senet rules moves`` reads a grid game's position (``senet rules show`` prints it).
GRID_POSITIONS = (
    "Positions for 'senet rules moves': board is 30 characters ('.', 'D', 'L'), square 1 first along "
    "the S-path (row 1 is 1-10 left to right, row 2 is 20-11, row 3 is 21-30); a piece on a long square "
    "is written on the square of the third it stands in, and a piece in PHARAO's water on 27. to_move "
    "is the player whose turn it is; state.stage is the part of the turn to play: own (an own piece), "
    "other (an opponent's piece), rescue (PHARAO's piece saved from the water) or place (RAMSES' placing), "
    "own when left out; PHARAO gives both dice as dice: [own, other]. Each move answers with from (a "
    "square, or \"off\" for a placement), to, board, next (who plays the next part), stage (that part), "
    "steps and winner."
)


def rules_list(out: TextIO) -> int:
    """One variant name per line, then its short description."""
    width = max(map(len, VARIANTS))
    for name, variant in VARIANTS.items():
        out.write(f"{name:<{width}}  {variant.description}\n")
    return 0


def rules_show(name: str, out: TextIO) -> int:
    """The rules of one variant as a person reads them, each with its ID."""
    from senet.engine.rulebook import RULE_SYSTEMS

    variant = find_variant(name)
    system = RULE_SYSTEMS[variant.prefix]
    wrap = textwrap.TextWrapper(width=88, initial_indent="    ", subsequent_indent="    ")
    out.write(f"{variant.name}: {system.title}\n{variant.description}\n\n")
    out.write("\n".join(textwrap.wrap(f"Source: {system.source}", 88)) + "\n\n")
    out.write(textwrap.fill(_throws_text(variant), 88) + "\n\n")
    if variant.in_parts:
        out.write(textwrap.fill(GRID_POSITIONS, 88) + "\n\n")
    for rule in system.rules:
        out.write(f"{rule.id}  {rule.title}\n")
        out.write(wrap.fill(rule.text) + "\n")
        if rule.reading:
            out.write(wrap.fill(rule.reading) + "\n")
        out.write("\n")
    return 0


def _throws_text(variant: Variant) -> str:
    """What a turn throws, in a sentence."""
    throws = variant.throws
    if isinstance(throws, StickThrows):
        odds = ", ".join(f"{value}: {chance}" for value, chance in throw_odds(throws.zero_value).items())
        return f"Throw values and their chances with fair sticks: {odds}"
    if isinstance(throws, DiceThrows):
        own, other = (", ".join(map(str, faces)) for faces in (throws.own_faces, throws.other_faces))
        return f"Throws: two dice together, the own die with the faces {own} and the opponent die with {other}."
    layout = variant.layout
    long = "; ".join("-".join(map(str, (cell[0], cell[-1]))) for cell in layout.long_cells) or "none"
    return (f"Nothing is thrown: the position sets how far each piece goes. Board: marked squares "
            f"{', '.join(map(str, sorted(layout.marked)))}; long squares {long}.")


def rules_moves(source: BinaryIO, out: TextIO) -> int:
    """Answer JSON-lines queries, one answer per line whatever it holds; exit code 2 if any line had an error."""
    failed = False
    for answer in answer_lines(source):
        failed |= "error" in answer
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()
    return 2 if failed else 0


def rules_play(name: str, seed: int, as_json: bool, out: TextIO) -> int:
    """Play a random game and print its record."""
    record = random_game(find_variant(name), seed).record
    out.write(json.dumps(record.to_dict()) + "\n" if as_json else record.format())
    return 0


def _mat_url(url: str | None) -> str | None:
    """The address the mat's QR code gives: ``--url``, else the one phones use to reach this machine's page."""
    from senet.device.address import phone_url
    from senet.device.config import Config, ConfigError, load_config

    if url is not None:
        return None if url == "none" else url
    try:
        config = load_config(SYSTEM_CONFIG) if SYSTEM_CONFIG.is_file() else Config()
    except ConfigError:
        config = Config()
    return phone_url(config.public_address, config.port)


def board_mat(out_dir: Path, paper: str, dpi: int, url: str | None, out: TextIO, variant: str = "kendall") -> int:
    """Write the printable mat for ``variant``'s board (RAMSES: its long and marked squares)."""
    from senet.vision.mat import write_mat

    try:
        paths = write_mat(out_dir, paper, dpi, url, find_variant(variant).layout)
    except OSError as error:
        sys.stderr.write(f"senet board mat: cannot write into {out_dir}: {error.strerror}; choose another --out folder\n")
        return 2
    for path in paths:
        out.write(f"{path}\n")
    return 0


def vision_read(start: Path, images: list[Path], mat_file: Path | None, variant: str, as_json: bool, out: TextIO) -> int:
    """Calibrate on the start picture, then print one line per picture."""
    from senet.vision.geometry import MatFileError
    from senet.vision.photos import calibrated_reader, read_photos
    from senet.vision.reader import CalibrationError, NoBoardError, no_board

    try:
        reader = calibrated_reader(start, mat_file, variant)
    except (NoBoardError, CalibrationError, MatFileError) as error:
        reason = _mat_file_problem(mat_file, error) if isinstance(error, MatFileError) else f"cannot calibrate on {start}: {error}"
        sys.stderr.write(f"senet vision read: {reason}\n")
        for path in images:  # still one line per picture, as the contract promises
            seen = no_board(reason)
            out.write((json.dumps(seen.to_json(str(path))) if as_json else f"{path}: no-board - {reason}") + "\n")
        return 2
    for path, seen in read_photos(reader, images):
        if as_json:
            out.write(json.dumps(seen.to_json(str(path))) + "\n")
        else:
            sticks = "-" if seen.light_up is None else str(seen.light_up)
            out.write(f"{path}: {seen.status} {seen.board or '-'} light_up={sticks} {seen.reason}".rstrip() + "\n")
        out.flush()
    return 0


def referee_replay(variant: str, start: Path, frames: Path, fps: float, mat_file: Path | None, as_json: bool, out: TextIO) -> int:
    """Feed a folder of frames through the companion loop and print its events."""
    from senet.device.replay import replay
    from senet.vision.geometry import MatFileError
    from senet.vision.reader import CalibrationError, NoBoardError
    from senet.vision.sources import CameraError

    try:
        for event in replay(variant, start, frames, fps, mat_file=mat_file):
            if as_json:
                out.write(json.dumps(event) + "\n")
            else:
                details = " ".join(f"{k}={v}" for k, v in event.items() if k not in ("frame", "event", "leds"))
                out.write(f"frame {event['frame']}: {event['event']} {details}".rstrip() + "\n")
            out.flush()
    except (NoBoardError, CalibrationError, MatFileError, CameraError) as error:
        reason = _mat_file_problem(mat_file, error) if isinstance(error, MatFileError) else str(error)
        sys.stderr.write(f"senet referee replay: {reason}\n")
        return 2
    return 0


def config_check(path: Path, out: TextIO) -> int:
    """``senet config check``: the file's problem (exit 2), or what it sets (exit 0)."""
    from senet.device.address import phone_url
    from senet.device.config import ConfigError, load_config

    try:
        config = load_config(path)
    except ConfigError as error:
        sys.stderr.write(f"senet config check: {error}\n")
        return 2
    everywhere = config.host in ("0.0.0.0", "::", "")
    phones = phone_url(config.public_address if everywhere else config.host, config.port)
    pin = "set" if config.admin_pin else "NOT set: anyone on the network may undo moves and set positions"
    store = config.store or 'nowhere (add store = "/var/lib/senet/matches.db")'
    idle = f"after {config.idle_reset_minutes:g} min" if config.idle_reset_minutes else "off"
    width, height = config.resolution
    out.write(f"{path}: fine\n"
              f"  rule system {config.variant}; camera {config.camera} at {width}x{height}; "
              f"settle {config.settle_seconds:g} s at {config.fps:g} frames/s\n"
              f"  page on {config.host}:{config.port}; phones: {phones}\n"
              f"  operator PIN {pin}; default language {config.language}\n"
              f"  matches kept in {store}; idle reset {idle}\n")
    return 0


def _mat_file_problem(mat_file: Path | None, error: Exception) -> str:
    return f"--mat {mat_file}: {error}; --mat takes the mat.json that 'senet board mat' wrote (not mat.png or mat.pdf)"


def companion_run(args: argparse.Namespace) -> int:
    """``senet run``: the configuration file, then the command line on top of it."""
    from dataclasses import replace

    from senet.device.config import Config, ConfigError, load_config
    from senet.device.service import run
    from senet.device.store import StoreError
    from senet.vision.sources import CameraError, parse_camera
    from senet.web.server import ServerError

    try:
        config = load_config(args.config) if args.config else Config()
    except ConfigError as error:
        sys.stderr.write(f"senet run: {error}\n")
        return 2
    overrides = {"variant": args.variant, "camera": args.camera, "settle_seconds": args.settle, "fps": args.fps,
                 "store": args.store, "port": args.port, "host": args.host}
    config = replace(config, **{key: value for key, value in overrides.items() if value is not None})
    try:
        recording = parse_camera(config.camera)[0] in ("video", "folder")
    except ValueError as error:  # the configuration's camera: --camera is checked as it is parsed
        sys.stderr.write(f"senet run: {args.config}: {error}\n")
        return 2
    try:
        return run(config, args.seed, args.turns, args.autoplay, not args.no_page, lambda line: print(line, flush=True))
    except CameraError as error:
        fix = "check the path" if recording else "check the cable"
        sys.stderr.write(f"senet run: cannot open the camera {config.camera}: {error}; {fix} or use --camera simulator\n")
        return 2
    except (StoreError, ServerError) as error:
        sys.stderr.write(f"senet run: {error}\n")
        return 2


class CommandParser(argparse.ArgumentParser):
    """argparse with every error on one line: what is wrong, and where the help is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _number(text: str, convert: type[int] | type[float], fix: str) -> float:
    """``text`` as a finite number; argparse's error ending in ``fix`` otherwise."""
    try:
        number = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a {'whole ' if convert is int else ''}number; {fix}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; {fix}")
    return number


def mat_dpi(text: str) -> int:
    """``--dpi``: a resolution the mat can be drawn at."""
    from senet.vision.mat import MAX_DPI, MIN_DPI, check_dpi

    try:
        return check_dpi(int(_number(text, int, f"use {MIN_DPI} to {MAX_DPI} (default 150)")))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def mat_folder(text: str) -> Path:
    """``--out``: a folder, existing or not, but not a file."""
    from senet.vision.mat import check_mat_folder

    try:
        return check_mat_folder(Path(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def frames_per_second(text: str) -> float:
    """``--fps``: more than 0, at most 60.

    >>> frames_per_second("12.5")
    12.5
    >>> frames_per_second("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0 frames a second cannot be read; use more than 0 and at most 60 (default 10)
    """
    fix = "use more than 0 and at most 60 (default 10)"
    fps = _number(text, float, fix)
    if not 0 < fps <= 60:
        raise argparse.ArgumentTypeError(f"{text} frames a second cannot be read; {fix}")
    return fps


def settle_seconds(text: str) -> float:
    """``--settle``: 0 to 10 seconds."""
    fix = "use 0 to 10 seconds (default 0.5)"
    seconds = _number(text, float, fix)
    if not 0 <= seconds <= 10:
        raise argparse.ArgumentTypeError(f"{text} seconds is no settle time; {fix}")
    return seconds


def camera_description(text: str) -> str:
    """``--camera``: one of the forms :func:`senet.vision.sources.parse_camera` knows."""
    from senet.vision.sources import parse_camera

    try:
        parse_camera(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535."""
    fix = "use 1 to 65535 (default 8080)"
    port = int(_number(text, int, fix))
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port; {fix}")
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="senet", description="Senet Companion: referee, teacher and match recorder.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules = commands.add_parser("rules", help="the rules engine: variants, rules, legal moves, random games")
    rule_commands = rules.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    rule_commands.add_parser("list", help="list the variants")
    show = rule_commands.add_parser("show", help="print a variant's rules with their IDs")
    show.add_argument("variant", choices=list(VARIANTS), metavar="VARIANT")
    rule_commands.add_parser("moves", help="read JSON-lines positions on stdin, write their legal moves")
    play = rule_commands.add_parser("play", help="play a random game and print its record")
    play.add_argument("variant", choices=list(VARIANTS), metavar="VARIANT")
    play.add_argument("--seed", type=int, default=0, help="the same seed gives the same game")
    play.add_argument("--json", action="store_true", help="print the record as JSON")

    board = commands.add_parser("board", help="the printed board mat")
    board_commands = board.add_subparsers(dest="board_command", required=True, metavar="ACTION")
    mat = board_commands.add_parser("mat", help="write mat.png, mat.pdf and mat.json")
    mat.add_argument("--out", type=mat_folder, required=True, help="folder to write into")
    mat.add_argument("--paper", choices=["a3", "a4"], default="a3", help="paper size (A3 is roomier for the sticks)")
    mat.add_argument("--dpi", type=mat_dpi, default=150, help="resolution of mat.png (150 to 600, default 150)")
    mat.add_argument("--url", help="the phone page's address, printed as a QR code (default: this machine's, from "
                                   "public_address and port in /etc/senet/companion.toml when there is one; 'none' for no QR code)")
    mat.add_argument("--variant", choices=list(VARIANTS), default="kendall",
                     help="the rule system whose board to print (ramses: its long and marked squares; the others share Senet's)")

    vision = commands.add_parser("vision", help="the camera: read pictures of the board")
    vision_commands = vision.add_subparsers(dest="vision_command", required=True, metavar="ACTION")
    read = vision_commands.add_parser("read", help="read pictures after calibrating on the start position")
    read.add_argument("--calibrate", type=Path, required=True, metavar="START_IMAGE", help="a picture of the start position, tray empty")
    read.add_argument("images", type=Path, nargs="+", metavar="IMAGE")
    read.add_argument("--mat", type=Path, help="mat.json of a custom mat (default: the mats senet prints)")
    read.add_argument("--variant", choices=list(VARIANTS), default="kendall", help="whose start position the start picture shows")
    read.add_argument("--json", action="store_true", help="one JSON object per line")

    run = commands.add_parser("run", help="run the companion (in simulation where there is no Pi)")
    run.add_argument("--config", type=Path, help="a TOML configuration (every key: docs/configuration.md)")
    run.add_argument("--variant", choices=list(VARIANTS), help="the rule system (default kendall)")
    run.add_argument("--camera", type=camera_description, help="auto (default), simulator, picamera2, usb:N, video:FILE or folder:DIR")
    run.add_argument("--settle", type=settle_seconds, help="seconds a board or throw must hold still (0 to 10, default 0.5)")
    run.add_argument("--fps", type=frames_per_second, help="frames a second to read (up to 60, default 10)")
    run.add_argument("--store", help="the match store (SQLite file): every match kept, the one in progress resumed after a restart")
    run.add_argument("--seed", type=int, help="make the simulation repeatable")
    run.add_argument("--turns", type=int, help="stop after this many moves (simulation demos)")
    run.add_argument("--autoplay", action="store_true", help="in simulation, let two simulated players play")
    run.add_argument("--port", type=port_number, help="port of the page (default: the configuration's, else 8080)")
    run.add_argument("--host", help="address the page listens on (default: the configuration's, else 0.0.0.0: every address, so phones reach it)")
    run.add_argument("--no-page", action="store_true", help="do not serve the page")

    log_command.add_parser(commands)

    configuration = commands.add_parser("config", help="the configuration file: check it")
    config_commands = configuration.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = config_commands.add_parser("check", help="check a configuration file and say what it sets")
    check.add_argument("file", type=Path, nargs="?", default=SYSTEM_CONFIG, help=f"the file (default {SYSTEM_CONFIG})")

    doctor = commands.add_parser("doctor", help="check the camera, pins, disk, clock and network, with a fix for each problem")
    doctor.add_argument("--config", type=Path, metavar="FILE", help=f"the configuration (default {SYSTEM_CONFIG} if it exists, else the defaults)")
    doctor.add_argument("--camera", metavar="CAMERA", help="the camera to check instead of the configuration's (auto, simulator, picamera2, usb:N, ...)")
    doctor.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="where to save the camera's picture, doctor-camera.png (default: here)")

    referee = commands.add_parser("referee", help="the referee: replay recorded frames")
    referee_commands = referee.add_subparsers(dest="referee_command", required=True, metavar="ACTION")
    replay = referee_commands.add_parser("replay", help="replay a folder of frames through the companion loop")
    replay.add_argument("--variant", required=True, choices=list(VARIANTS))
    replay.add_argument("--calibrate", type=Path, required=True, metavar="START_IMAGE")
    replay.add_argument("frames", type=Path, metavar="FRAMES_DIR")
    replay.add_argument("--fps", type=frames_per_second, default=10.0, help="frames per second the folder was taken at (up to 60)")
    replay.add_argument("--mat", type=Path, help="mat.json of a custom mat (default: the mats senet prints)")
    replay.add_argument("--json", action="store_true", help="one JSON object per event")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args, sys.stdout)
    except BrokenPipeError:  # the reader (head, less) went away: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "board":
        return board_mat(args.out, args.paper, args.dpi, _mat_url(args.url), out, args.variant)
    if args.command == "vision":
        return vision_read(args.calibrate, args.images, args.mat, args.variant, args.json, out)
    if args.command == "run":
        return companion_run(args)
    if args.command == "log":
        return log_command.run(args, out)
    if args.command == "config":
        return config_check(args.file, out)
    if args.command == "doctor":
        from senet.device.doctor import doctor_command
        return doctor_command(args.config, args.camera, args.out, out, SYSTEM_CONFIG)
    if args.command == "referee":
        return referee_replay(args.variant, args.calibrate, args.frames, args.fps, args.mat, args.json, out)
    if args.rules_command == "list":
        return rules_list(out)
    if args.rules_command == "show":
        return rules_show(args.variant, out)
    if args.rules_command == "moves":
        return rules_moves(sys.stdin.buffer, out)
    return rules_play(args.variant, args.seed, args.json, out)


if __name__ == "__main__":
    sys.exit(main())
