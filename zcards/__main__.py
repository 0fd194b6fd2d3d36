from zcards.cli import main

main()
