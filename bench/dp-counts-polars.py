"""
The data-frame peer of Custos's dp-counts, for `npm run bench`: every 1- and 2-way marginal of
the given columns over the values found in the data (empty cells included, as Custos answers
them), each count plus discrete Laplace noise of scale Δ/ε (Δ = the number of marginals) from
SciPy's `dlaplace`, written as one CSV. Polars reads and groups; the noise is NumPy's generator,
not a cryptographic one (Custos draws its noise exactly from a CSPRNG: the peer is a floor on time,
not an equal release).

python3 bench/dp-counts-polars.py INPUT.csv DELIMITER OUT.csv EPSILON COLUMN...
Prints one line: the number of answers and the process's peak resident set size in bytes.
"""
import itertools
import resource
import sys

import polars as pl
from scipy.stats import dlaplace


def main() -> None:
    path, delimiter, out, epsilon, *columns = sys.argv[1:]
    frame = pl.read_csv(path, separator=delimiter, columns=columns, infer_schema_length=0)
    values = {c: frame.get_column(c).unique().sort() for c in columns}
    pairs = list(itertools.combinations(columns, 2))
    sensitivity = len(columns) + len(pairs)
    parts = []
    for c in columns:
        counted = frame.group_by(c).len()
        cells = pl.DataFrame({c: values[c]}).join(counted, on=c, how="left")
        parts.append(cells.select(pl.lit(c).alias("a"), pl.col(c).alias("x"), pl.lit(None, pl.Utf8).alias("b"), pl.lit(None, pl.Utf8).alias("y"), pl.col("len").fill_null(0)))
    for a, b in pairs:
        counted = frame.group_by([a, b]).len()
        cells = pl.DataFrame({a: values[a]}).join(pl.DataFrame({b: values[b]}), how="cross").join(counted, on=[a, b], how="left")
        parts.append(cells.select(pl.lit(a).alias("a"), pl.col(a).alias("x"), pl.lit(b).alias("b"), pl.col(b).alias("y"), pl.col("len").fill_null(0)))
    answers = pl.concat(parts)
    noise = dlaplace.rvs(float(epsilon) / sensitivity, size=answers.height)
    answers.with_columns((pl.col("len") + noise).alias("answer")).drop("len").write_csv(out)
    print(answers.height, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)


if __name__ == "__main__":
    main()
