// ARX 3.9.2's optimum and Loss on Adult with attribute weights and a generalization/suppression
// factor (Metric.createLossMetric(gsFactor) + ARXConfiguration.setAttributeWeight): the reference
// figures of test/fixtures/arx/loss-weights.json. Compiled and run against the ARX build (see README.md):
//
//   javac -cp "$CP" LossWeightsFigures.java -d /tmp/arx-harness
//   java -cp "/tmp/arx-harness:$CP" LossWeightsFigures resources/adult > test/fixtures/arx/loss-weights.json
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.criteria.DistinctLDiversity;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.metric.Metric;

public class LossWeightsFigures {

    private static final String[] QUASI = { "sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class" };

    static final class Setting {
        final String name; final PrivacyCriterion model; final double limit; final double gsFactor; final Map<String, Double> weights;
        Setting(String name, PrivacyCriterion model, double limit, double gsFactor, Map<String, Double> weights) {
            this.name = name; this.model = model; this.limit = limit; this.gsFactor = gsFactor; this.weights = weights;
        }
    }

    static Map<String, Double> weights(Object... pairs) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) out.put((String) pairs[i], (Double) pairs[i + 1]);
        return out;
    }

    public static void main(String[] args) throws Exception {
        String dir = args.length > 0 ? args[0] : "resources/adult";
        Setting[] settings = {
            new Setting("5-anonymity, 5 %, gsFactor 0.3", new KAnonymity(5), 0.05, 0.3, weights()),
            new Setting("5-anonymity, 5 %, gsFactor 0.8, weights", new KAnonymity(5), 0.05, 0.8, weights("age", 1.0, "sex", 0.1, "education", 0.8, "native-country", 0.2)),
            new Setting("5-anonymity, 0 %, weights", new KAnonymity(5), 0.0, 0.5, weights("age", 0.9, "marital-status", 0.1, "workclass", 0.0)),
            new Setting("5-anonymity, 10 %, gsFactor 0.1, weights", new KAnonymity(5), 0.1, 0.1, weights("age", 1.0, "race", 0.3, "salary-class", 0.6)),
            new Setting("distinct 3-diversity, 5 %, gsFactor 0.2, weights", new DistinctLDiversity("occupation", 3), 0.05, 0.2, weights("age", 0.2, "race", 1.0, "education", 0.7)),
        };
        StringBuilder out = new StringBuilder("{\n  \"source\": \"ARX 3.9.2 built from source, bench/arx-harness/LossWeightsFigures.java, resources/adult\",\n  \"quasi\": [");
        for (int i = 0; i < QUASI.length; i++) out.append(i == 0 ? "" : ", ").append('"').append(QUASI[i]).append('"');
        out.append("],\n  \"settings\": [\n");
        for (int s = 0; s < settings.length; s++) {
            Setting setting = settings[s];
            Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
            for (String name : QUASI) data.getDefinition().setAttributeType(name, Hierarchy.create(new File(dir, "adult_hierarchy_" + name + ".csv"), StandardCharsets.UTF_8, ';'));
            boolean sensitive = !(setting.model instanceof KAnonymity);
            data.getDefinition().setAttributeType("occupation", sensitive ? AttributeType.SENSITIVE_ATTRIBUTE : AttributeType.INSENSITIVE_ATTRIBUTE);
            ARXConfiguration config = ARXConfiguration.create();
            config.addPrivacyModel(setting.model);
            config.setSuppressionLimit(setting.limit);
            config.setQualityModel(Metric.createLossMetric(setting.gsFactor));
            for (Map.Entry<String, Double> w : setting.weights.entrySet()) config.setAttributeWeight(w.getKey(), w.getValue());
            ARXResult result = new ARXAnonymizer().anonymize(data, config);
            ARXNode optimum = result.getGlobalOptimum();
            out.append("    { \"name\": \"").append(setting.name).append("\", \"model\": \"").append(setting.model.toString()).append("\", \"suppressionLimit\": ").append(setting.limit);
            out.append(", \"gsFactor\": ").append(setting.gsFactor).append(", \"weights\": {");
            int i = 0;
            for (Map.Entry<String, Double> w : setting.weights.entrySet()) out.append(i++ == 0 ? "" : ", ").append('"').append(w.getKey()).append("\": ").append(w.getValue());
            out.append("}, \"levels\": [");
            for (int q = 0; q < QUASI.length; q++) out.append(q == 0 ? "" : ", ").append(optimum == null ? "null" : String.valueOf(optimum.getGeneralization(QUASI[q])));
            out.append("], \"loss\": ").append(optimum == null ? "null" : optimum.getHighestScore().toString()).append(" }").append(s + 1 < settings.length ? ",\n" : "\n");
        }
        out.append("  ]\n}\n");
        System.out.print(out);
    }
}
