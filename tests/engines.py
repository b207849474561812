"""The engines every conformance test runs against. A new engine joins the suite by one line here."""

ENGINES = ["native", "native:dfs", "cpsat", "sat"]  # native = its CDCL search; native:dfs = probing DFS
