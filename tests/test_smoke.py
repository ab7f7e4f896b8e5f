from president.cli.main import build_parser


def test_parser_knows_every_command():
    parser = build_parser()
    args = parser.parse_args(["selfplay", "--players", "5"])
    assert args.players == 5
