from pipeline.cli import main

try:
    main()
finally:
    # Under `python -m`, CPython 3.11 exits by SIGINT, whatever the exit code, once a KeyboardInterrupt has ended
    # any string exec (dataclasses and namedtuples are made by one), even if it was caught: Ctrl-C during a lazy
    # import exited -2, not 130. Each string exec clears that mark as it starts.
    exec("")
