from briscola.terminal.cli import main

main()
