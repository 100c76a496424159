// The Adult settings run in ARX 3.9, to compare with Custos's global-recoding results
// (src/mechanisms/global-recoding/README.md, "Adult, the settings"). Not compiled or run in
// this repository: there is no Java here. On a machine with ARX 3.9's library jar:
//
//   javac -cp libarx-3.9.x.jar bench/arx/GlobalRecodingAdult.java -d /tmp/arx-bench
//   java -cp libarx-3.9.x.jar:/tmp/arx-bench GlobalRecodingAdult resources/adult
//
// It prints one line per setting: the optimum's level per quasi-identifier (in the order Custos's
// README lists them), the Loss ARX reports for it, and the search time.
import java.io.File;
import java.nio.charset.StandardCharsets;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.criteria.DistinctLDiversity;
import org.deidentifier.arx.criteria.EqualDistanceTCloseness;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.metric.Metric;

public class GlobalRecodingAdult {

    private static final String[] QUASI = { "sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class" };

    private static Data load(String dir, boolean sensitive) throws Exception {
        Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
        for (String name : QUASI) {
            data.getDefinition().setAttributeType(name, Hierarchy.create(new File(dir, "adult_hierarchy_" + name + ".csv"), StandardCharsets.UTF_8, ';'));
        }
        // ARX wants a model for every sensitive attribute: occupation is insensitive under k-anonymity alone (the setting).
        data.getDefinition().setAttributeType("occupation", sensitive ? AttributeType.SENSITIVE_ATTRIBUTE : AttributeType.INSENSITIVE_ATTRIBUTE);
        return data;
    }

    private static void run(String dir, String name, PrivacyCriterion model, double limit) throws Exception {
        Data data = load(dir, !(model instanceof KAnonymity));
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(model);
        config.setSuppressionLimit(limit);
        config.setQualityModel(Metric.createLossMetric());
        long start = System.nanoTime();
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        long ms = (System.nanoTime() - start) / 1_000_000;
        ARXNode optimum = result.getGlobalOptimum();
        StringBuilder levels = new StringBuilder();
        for (String q : QUASI) levels.append(levels.length() == 0 ? "" : ", ").append(optimum == null ? "-" : optimum.getGeneralization(q));
        System.out.println(name + ": levels " + levels + "; Loss " + (optimum == null ? "-" : optimum.getHighestScore()) + "; " + ms + " ms (load included in the anonymize call)");
    }

    public static void main(String[] args) throws Exception {
        String dir = args.length > 0 ? args[0] : "resources/adult";
        for (double limit : new double[] { 0d, 0.05d }) {
            String percent = limit == 0d ? "0 %" : "5 %";
            run(dir, "5-anonymity, " + percent, new KAnonymity(5), limit);
            run(dir, "distinct 3-diversity, " + percent, new DistinctLDiversity("occupation", 3), limit);
            run(dir, "0.2-closeness (equal distance), " + percent, new EqualDistanceTCloseness("occupation", 0.2d), limit);
        }
    }
}
