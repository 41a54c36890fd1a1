from fastttt.cli import main

main()
