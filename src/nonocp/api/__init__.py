"""The Python API's machinery behind the functions of `nonocp` itself (nonocp/__init__.py is the facade):
argument checks that name what a call accepts (checks.py), fixed cells in the forms a person writes them
(fixed.py), and the stoppable stream of solutions (stream.py)."""
