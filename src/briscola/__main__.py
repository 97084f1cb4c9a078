from briscola.cli import main

main()
