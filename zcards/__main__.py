from zcards.cli import run

run()
