// How many of Adult's 4,320 transformations ARX 3.9.2's search checks (ARXNode.isChecked) for entropy
// ℓ-diversity and t-closeness at 0 % suppression, with its optimum: the figures issue 36's done-when
// compares Custos's evaluated transformations with (bench/search-models.ts prints Custos's). Run (README.md):
//
//   javac -cp "$CP" CheckedTransformations.java -d /tmp/arx-harness
//   java -cp "/tmp/arx-harness:$CP" CheckedTransformations resources/adult
import java.io.File;
import java.nio.charset.StandardCharsets;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.criteria.EntropyLDiversity;
import org.deidentifier.arx.criteria.EqualDistanceTCloseness;
import org.deidentifier.arx.criteria.HierarchicalDistanceTCloseness;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.metric.Metric;

public class CheckedTransformations {

    private static final String[] QUASI = { "sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class" };

    public static void main(String[] args) throws Exception {
        String dir = args.length > 0 ? args[0] : "resources/adult";
        String[] names = { "entropy 3-diversity", "entropy 5-diversity", "0.2-closeness (equal)", "0.2-closeness (hierarchical) and 5-anonymity" };
        StringBuilder out = new StringBuilder("{\n  \"source\": \"ARX 3.9.2 built from source, bench/arx-harness/CheckedTransformations.java, resources/adult, occupation sensitive, 0 %, Loss\",\n  \"settings\": [\n");
        for (int s = 0; s < names.length; s++) {
            Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
            for (String name : QUASI) data.getDefinition().setAttributeType(name, Hierarchy.create(new File(dir, "adult_hierarchy_" + name + ".csv"), StandardCharsets.UTF_8, ';'));
            data.getDefinition().setAttributeType("occupation", AttributeType.SENSITIVE_ATTRIBUTE);
            ARXConfiguration config = ARXConfiguration.create();
            PrivacyCriterion[] models;
            switch (s) {
                case 0: models = new PrivacyCriterion[] { new EntropyLDiversity("occupation", 3) }; break;
                case 1: models = new PrivacyCriterion[] { new EntropyLDiversity("occupation", 5) }; break;
                case 2: models = new PrivacyCriterion[] { new EqualDistanceTCloseness("occupation", 0.2) }; break;
                default:
                    data.getDefinition().setHierarchy("occupation", Hierarchy.create(new File(dir, "adult_hierarchy_occupation.csv"), StandardCharsets.UTF_8, ';'));
                    models = new PrivacyCriterion[] { new HierarchicalDistanceTCloseness("occupation", 0.2, data.getDefinition().getHierarchyObject("occupation")), new KAnonymity(5) };
            }
            for (PrivacyCriterion m : models) config.addPrivacyModel(m);
            config.setSuppressionLimit(0d);
            config.setQualityModel(Metric.createLossMetric());
            long started = System.nanoTime();
            ARXResult result = new ARXAnonymizer().anonymize(data, config);
            long ms = (System.nanoTime() - started) / 1_000_000;
            int checked = 0;
            for (ARXNode[] level : result.getLattice().getLevels()) for (ARXNode node : level) if (node.isChecked()) checked++;
            ARXNode optimum = result.getGlobalOptimum();
            out.append("    { \"name\": \"").append(names[s]).append("\", \"checked\": ").append(checked).append(", \"levels\": [");
            for (int q = 0; q < QUASI.length; q++) out.append(q == 0 ? "" : ", ").append(optimum == null ? "null" : String.valueOf(optimum.getGeneralization(QUASI[q])));
            out.append("], \"loss\": ").append(optimum == null ? "null" : optimum.getHighestScore().toString()).append(", \"milliseconds\": ").append(ms).append(" }").append(s + 1 < names.length ? ",\n" : "\n");
        }
        out.append("  ]\n}\n");
        System.out.print(out);
    }
}
