import com.carrotsearch.hppc.IntIntOpenHashMap;
import org.deidentifier.arx.*;
import org.deidentifier.arx.risk.*;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

/** ARX's population-uniqueness figures for small hand-made class-size histograms (degenerate cases). */
public class SyntheticFigures {
    static String num(double v) { return Double.isNaN(v) ? "null" : Double.toString(v); }
    public static void main(String[] args) {
        int[][][] cases = {
            { { 1, 100 } },                       // all uniques
            { { 1, 1 } },                         // one record
            { { 1, 1 }, { 2, 1 } },               // three records
            { { 1, 5 }, { 2, 3 }, { 3, 2 }, { 7, 1 } },
            { { 1, 40 }, { 2, 30 }, { 3, 20 }, { 4, 10 }, { 10, 5 }, { 50, 2 } },
            { { 1, 300 }, { 2, 120 }, { 3, 60 }, { 5, 30 }, { 8, 20 }, { 20, 10 } },
            { { 2, 10 }, { 5, 4 } },              // no uniques
        };
        double[] fractions = { 0.01, 0.1, 0.3, 0.5, 0.9 };
        StringBuilder out = new StringBuilder("{\n  \"cases\": [\n");
        boolean first = true;
        for (int[][] c : cases) {
            IntIntOpenHashMap map = new IntIntOpenHashMap();
            int n = 0;
            for (int[] e : c) { map.put(e[0], e[1]); n += e[0] * e[1]; }
            for (double fraction : fractions) {
                ARXPopulationModel population = ARXPopulationModel.create(n, fraction);
                RiskModelPopulationUniqueness pu = new RiskModelPopulationUniqueness(population, new RiskModelHistogram(map), ARXSolverConfiguration.create());
                if (!first) out.append(",\n");
                first = false;
                out.append("    { \"classSizeFrequencies\": [");
                for (int i = 0; i < c.length; i++) out.append(i == 0 ? "" : ", ").append('[').append(c[i][0]).append(", ").append(c[i][1]).append(']');
                out.append("], \"fraction\": ").append(fraction).append(", \"populationSize\": ").append(population.getPopulationSize());
                out.append(", \"populationUniques\": {");
                boolean f2 = true;
                for (PopulationUniquenessModel m : PopulationUniquenessModel.values()) {
                    out.append(f2 ? "" : ", ").append('"').append(m.name()).append("\": ").append(num(pu.getNumUniqueTuples(m)));
                    f2 = false;
                }
                out.append("}, \"dankarChoice\": \"").append(pu.getPopulationUniquenessModel()).append("\" }");
            }
        }
        out.append("\n  ]\n}\n");
        System.out.print(out);
    }
}
