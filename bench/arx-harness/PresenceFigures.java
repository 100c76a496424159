// ARX 3.9.2's optimum and Loss on Adult with δ-presence and a research subset (DPresence + DataSubset):
// the reference figures of test/fixtures/arx/delta-presence.json. The subset is a fixed pseudo-random
// tenth of the records: data row r (0-based, after the header) is in it when (r · 2654435761) mod 2³²
// < 429496730; test/arx-presence.test.ts adds the same column to a copy of the data. Run (see README.md):
//
//   javac -cp "$CP" PresenceFigures.java -d /tmp/arx-harness
//   java -cp "/tmp/arx-harness:$CP" PresenceFigures resources/adult > test/fixtures/arx/delta-presence.json
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataSubset;
import org.deidentifier.arx.criteria.DPresence;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.metric.Metric;

public class PresenceFigures {

    private static final String[] QUASI = { "sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class" };

    static boolean inSubset(int row) {
        return ((row * 2654435761L) & 0xffffffffL) < 429496730L;
    }

    static final class Setting {
        final String name; final double dMin; final double dMax; final int k; final double limit;
        Setting(String name, double dMin, double dMax, int k, double limit) { this.name = name; this.dMin = dMin; this.dMax = dMax; this.k = k; this.limit = limit; }
    }

    public static void main(String[] args) throws Exception {
        String dir = args.length > 0 ? args[0] : "resources/adult";
        Setting[] settings = {
            new Setting("(0, 0.2)-presence, 0 %", 0.0, 0.2, 0, 0.0),
            new Setting("(0.05, 0.15)-presence and 2-anonymity, 5 %", 0.05, 0.15, 2, 0.05),
            new Setting("(0, 0.5)-presence and 5-anonymity, 2 %", 0.0, 0.5, 5, 0.02),
        };
        StringBuilder out = new StringBuilder("{\n  \"source\": \"ARX 3.9.2 built from source, bench/arx-harness/PresenceFigures.java, resources/adult\",\n");
        out.append("  \"subset\": \"data row r (0-based) is in the research subset when (r * 2654435761) mod 2^32 < 429496730\",\n  \"quasi\": [");
        for (int i = 0; i < QUASI.length; i++) out.append(i == 0 ? "" : ", ").append('"').append(QUASI[i]).append('"');
        out.append("],\n  \"settings\": [\n");
        for (int s = 0; s < settings.length; s++) {
            Setting setting = settings[s];
            Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
            for (String name : QUASI) data.getDefinition().setAttributeType(name, Hierarchy.create(new File(dir, "adult_hierarchy_" + name + ".csv"), StandardCharsets.UTF_8, ';'));
            data.getDefinition().setAttributeType("occupation", AttributeType.INSENSITIVE_ATTRIBUTE);
            int rows = data.getHandle().getNumRows();
            Set<Integer> subset = new HashSet<>();
            for (int r = 0; r < rows; r++) if (inSubset(r)) subset.add(r);
            ARXConfiguration config = ARXConfiguration.create();
            config.addPrivacyModel(new DPresence(setting.dMin, setting.dMax, DataSubset.create(data, subset)));
            if (setting.k > 0) config.addPrivacyModel(new KAnonymity(setting.k));
            config.setSuppressionLimit(setting.limit);
            config.setQualityModel(Metric.createLossMetric());
            long started = System.nanoTime();
            ARXResult result = new ARXAnonymizer().anonymize(data, config);
            long ms = (System.nanoTime() - started) / 1_000_000;
            ARXNode optimum = result.getGlobalOptimum();
            int released = -1;
            if (optimum != null) {
                released = 0;
                org.deidentifier.arx.DataHandle view = result.getOutput(optimum, false).getView();
                for (int r = 0; r < view.getNumRows(); r++) if (!view.isOutlier(r)) released++;
            }
            out.append("    { \"name\": \"").append(setting.name).append("\", \"deltaMin\": ").append(setting.dMin).append(", \"deltaMax\": ").append(setting.dMax);
            out.append(", \"k\": ").append(setting.k).append(", \"suppressionLimit\": ").append(setting.limit).append(", \"subsetRecords\": ").append(subset.size()).append(", \"levels\": [");
            for (int q = 0; q < QUASI.length; q++) out.append(q == 0 ? "" : ", ").append(optimum == null ? "null" : String.valueOf(optimum.getGeneralization(QUASI[q])));
            out.append("], \"loss\": ").append(optimum == null ? "null" : optimum.getHighestScore().toString()).append(", \"releasedRecords\": ").append(released).append(", \"milliseconds\": ").append(ms).append(" }").append(s + 1 < settings.length ? ",\n" : "\n");
        }
        out.append("  ]\n}\n");
        System.out.print(out);
    }
}
