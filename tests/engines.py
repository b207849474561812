"""The engines every conformance test runs against. A new engine joins the suite by one line here."""

ENGINES = ["native", "cpsat", "sat"]
