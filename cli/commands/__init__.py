"""The subcommands of ``president``, one module each; ``run(args)`` returns the exit code.

``president.cli.main`` parses the command line and imports only the module it runs.
"""
