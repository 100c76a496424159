import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.risk.*;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

/** Prints ARX's population-uniqueness figures for Adult as JSON (reference figures for Custos's tests). */
public class PopulationUniquenessFigures {
    static String num(double v) { return Double.isNaN(v) ? "null" : Double.toString(v); }

    public static void main(String[] args) throws Exception {
        String csv = args[0];
        String[][] qiSets = {
            { "age", "sex", "race" },
            { "age", "sex", "race", "marital-status" },
            { "age", "education", "sex", "native-country" },
            { "sex", "race" },
            { "age", "sex", "race", "marital-status", "education", "native-country" },
        };
        double[] fractions = { 0.01, 0.1, 0.5 };
        StringBuilder out = new StringBuilder("{\n  \"settings\": [\n");
        boolean first = true;
        for (String[] qis : qiSets) {
            Data data = Data.create(new File(csv), StandardCharsets.UTF_8, ';');
            DataHandle handle = data.getHandle();
            Set<String> qiSet = new LinkedHashSet<>(Arrays.asList(qis));
            for (double fraction : fractions) {
                ARXPopulationModel population = ARXPopulationModel.create(handle.getNumRows(), fraction);
                RiskEstimateBuilder builder = handle.getRiskEstimator(population, qiSet);
                RiskModelHistogram histogram = builder.getEquivalenceClassModel();
                RiskModelPopulationUniqueness pu = builder.getPopulationBasedUniquenessRisk();
                RiskModelSampleRisks sample = builder.getSampleBasedReidentificationRisk();
                RiskModelSampleUniqueness su = builder.getSampleBasedUniquenessRisk();
                if (!first) out.append(",\n");
                first = false;
                out.append("    {\n      \"quasiIdentifiers\": [");
                for (int i = 0; i < qis.length; i++) out.append(i == 0 ? "" : ", ").append('"').append(qis[i]).append('"');
                out.append("],\n      \"fraction\": ").append(fraction);
                out.append(",\n      \"records\": ").append((long) histogram.getNumRecords());
                out.append(",\n      \"populationSize\": ").append(population.getPopulationSize());
                out.append(",\n      \"classSizeFrequencies\": [");
                int[] h = histogram.getHistogram();
                for (int i = 0; i < h.length; i += 2) out.append(i == 0 ? "" : ", ").append('[').append(h[i]).append(", ").append(h[i + 1]).append(']');
                out.append("],\n      \"populationUniques\": {");
                boolean f2 = true;
                for (PopulationUniquenessModel m : PopulationUniquenessModel.values()) {
                    out.append(f2 ? "" : ", ").append('"').append(m.name()).append("\": ").append(num(pu.getNumUniqueTuples(m)));
                    f2 = false;
                }
                out.append("},\n      \"populationUniqueShare\": {");
                f2 = true;
                for (PopulationUniquenessModel m : PopulationUniquenessModel.values()) {
                    out.append(f2 ? "" : ", ").append('"').append(m.name()).append("\": ").append(num(pu.getFractionOfUniqueTuples(m)));
                    f2 = false;
                }
                out.append("},\n      \"dankarChoice\": \"").append(pu.getPopulationUniquenessModel()).append('"');
                out.append(",\n      \"sampleUniqueShare\": ").append(num(su.getFractionOfUniqueRecords()));
                out.append(",\n      \"prosecutorHighest\": ").append(num(sample.getHighestRisk()));
                out.append(",\n      \"prosecutorAverage\": ").append(num(sample.getAverageRisk()));
                out.append(",\n      \"estimatedJournalistRisk\": ").append(num(sample.getEstimatedJournalistRisk()));
                out.append("\n    }");
            }
        }
        out.append("\n  ]\n}\n");
        System.out.print(out);
    }
}
