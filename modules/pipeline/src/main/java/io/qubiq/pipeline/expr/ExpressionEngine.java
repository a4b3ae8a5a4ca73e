package io.qubiq.pipeline.expr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.jexl3.JexlBuilder;
import org.apache.commons.jexl3.JexlEngine;
import org.apache.commons.jexl3.JexlException;
import org.apache.commons.jexl3.JexlScript;
import org.apache.commons.jexl3.JexlFeatures;
import org.apache.commons.jexl3.introspection.JexlPermissions;
import org.apache.commons.jexl3.introspection.JexlUberspect;

/**
 * Compiles pipeline expressions (Apache Commons JEXL) inside a sandbox, so that configuration
 * cannot reach Java classes, files or processes. The sandbox has three walls:
 * <ol>
 *   <li><b>Grammar</b>: object creation ({@code new}), method calls ({@code x.foo()}), loops,
 *   assignments and other side effects, lambdas, pragmas, annotations and namespaces do not parse.
 *   What is left: literals (numbers, strings, lists, maps), variables and their map fields,
 *   operators, the ternary, and the functions of {@link Functions}.</li>
 *   <li><b>Names</b>: every variable an expression reads must be one its pipeline offers, every
 *   function one of {@link Functions#NAMES}, and no property may be named like a door to the
 *   runtime ({@code class}, {@code classLoader}, ...). Checked when the expression compiles,
 *   which is when the configuration loads.</li>
 *   <li><b>Introspection</b>: a property can be read only from a map (its field), a list or an array
 *   (its element), whatever its name, literal or computed ({@code path['cl' + 'ass']} fails when it
 *   evaluates: {@link PropertyGate}); and JEXL's RESTRICTED permissions, widened only by
 *   {@link Functions}, decide what else evaluation may touch.</li>
 * </ol>
 * And each evaluation runs within {@link ExpressionLimits}: ranges, collections and strings it builds
 * are bounded, and so is its time ({@link EvaluationBudget}, {@link SandboxArithmetic}).
 * Thread-safe: one engine serves every pipeline; compiled expressions are immutable.
 */
public final class ExpressionEngine {

    /** Property names that lead from a value to the runtime; refused anywhere in an expression. */
    private static final Set<String> FORBIDDEN_PROPERTIES = Set.of("class", "getClass", "classLoader",
            "getClassLoader", "declaringClass", "module", "runtime", "forName", "constructor");

    /** JEXL's own function-like operators, allowed besides ours. */
    private static final Set<String> BUILT_INS = Set.of("size", "empty");

    // possessive quantifiers: a long literal must not recurse once per character (StackOverflowError)
    private static final Pattern STRINGS = Pattern.compile("'(?:[^'\\\\]++|\\\\.)*+'|\"(?:[^\"\\\\]++|\\\\.)*+\"");
    private static final Pattern CALL = Pattern.compile("(?<![\\w.:])([A-Za-z_$][\\w$]*)\\s*\\(");
    /** A namespace call as JEXL prints it back ({@code ns:fn(}); a ternary prints as {@code a ? b : c}. */
    private static final Pattern NAMESPACE_CALL = Pattern.compile("(?<![\\w.])([A-Za-z_$][\\w$.]*):([A-Za-z_$][\\w$]*)\\(");

    private final JexlEngine jexl;
    private final Functions functions;
    private final ExpressionLimits limits;

    /** An engine with the {@link ExpressionLimits#DEFAULT default} limits. */
    public ExpressionEngine(TagLookup tags) {
        this(tags, ExpressionLimits.DEFAULT);
    }

    public ExpressionEngine(TagLookup tags, ExpressionLimits limits) {
        this.limits = limits;
        this.functions = new Functions(tags, limits);
        JexlFeatures features = new JexlFeatures()
                .newInstance(false)
                .methodCall(false)
                .loops(false)
                .sideEffect(false)
                .sideEffectGlobal(false)
                .localVar(false)
                .lambda(false)
                .fatArrow(false)
                .thinArrow(false)
                .pragma(false)
                .importPragma(false)
                .namespacePragma(false)
                .namespaceIdentifier(false)
                .namespaceInstantiation(false)
                .namespaceTest(prefix -> false)
                .annotation(false)
                .script(false)
                .register(false);
        Map<String, Object> namespaces = new HashMap<>();
        namespaces.put(null, functions);
        JexlPermissions permissions = new JexlPermissions.ClassPermissions(Functions.class);
        JexlUberspect introspection = new JexlBuilder().permissions(permissions).create().getUberspect();
        this.jexl = new JexlBuilder()
                .features(features)
                .permissions(permissions)
                .uberspect(new PropertyGate(introspection))
                .arithmetic(new SandboxArithmetic(true))
                .namespaces(namespaces)
                .antish(false)
                .strict(true)
                .silent(false)
                .safe(false)
                .cache(256)
                .create();
        warmUp();
    }

    /**
     * Loads JEXL's interpreter once, outside any budget, so that a pipeline's first evaluation does not spend its
     * time budget on class loading.
     */
    private void warmUp() {
        jexl.createScript("[1 .. 2, {'a': 1}['a'] + 1 - 1 * 1 / 1, 'a' =~ 'a']").execute(new org.apache.commons.jexl3.MapContext());
    }

    /** An engine for checking configuration: same sandbox, no tag values. */
    public static ExpressionEngine forValidation() {
        return new ExpressionEngine(TagLookup.none());
    }

    /**
     * Compiles {@code source} for a pipeline whose events offer {@code variables}.
     *
     * @throws ExpressionException naming the expression and what the sandbox refused
     */
    public Expression compile(String source, Set<String> variables) throws ExpressionException {
        if (source == null || source.isBlank()) {
            throw new ExpressionException("the expression is empty");
        }
        JexlScript expression;
        try {
            expression = jexl.createScript(source);
        } catch (JexlException e) {
            throw new ExpressionException("\"" + source + "\" is not allowed: " + reason(e), e);
        }
        checkCalls(source, expression.getParsedText());
        checkVariables(source, expression.getVariables(), variables);
        return new Expression(source, expression, limits);
    }

    /**
     * Compiles a text template such as {@code plant/{{path}}/value}: literal text with sandboxed
     * expressions in double braces.
     *
     * @throws ExpressionException when a brace is unbalanced or a placeholder is not allowed
     */
    public Template compileTemplate(String source, Set<String> variables) throws ExpressionException {
        if (source == null || source.isEmpty()) {
            throw new ExpressionException("the template is empty");
        }
        List<Template.Part> parts = new ArrayList<>();
        int at = 0;
        while (at < source.length()) {
            int open = source.indexOf("{{", at);
            if (open < 0) {
                parts.add(new Template.Part(source.substring(at), null));
                break;
            }
            int close = source.indexOf("}}", open + 2);
            if (close < 0) {
                throw new ExpressionException("template \"" + source + "\" opens {{ at " + open + " without a closing }}");
            }
            if (open > at) {
                parts.add(new Template.Part(source.substring(at, open), null));
            }
            parts.add(new Template.Part(null, compile(source.substring(open + 2, close).strip(), variables)));
            at = close + 2;
        }
        return new Template(source, parts);
    }

    /** The functions expressions of this engine call; templates render values with its {@code str}. */
    public Functions functions() {
        return functions;
    }

    private static void checkCalls(String source, String parsed) throws ExpressionException {
        String code = STRINGS.matcher(parsed).replaceAll("''");
        Matcher namespaced = NAMESPACE_CALL.matcher(code);
        if (namespaced.find()) {
            throw new ExpressionException("\"" + source + "\" calls " + namespaced.group(1) + ":" + namespaced.group(2)
                    + ": namespaces are not available; call the functions by their plain names");
        }
        Matcher call = CALL.matcher(code);
        List<String> unknown = new ArrayList<>();
        while (call.find()) {
            String name = call.group(1);
            if (!Functions.NAMES.contains(name) && !BUILT_INS.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ExpressionException("\"" + source + "\" calls " + String.join(", ", unknown)
                    + ": only these functions exist: " + String.join(", ", Functions.NAMES.stream().sorted().toList()));
        }
    }

    private static void checkVariables(String source, Set<List<String>> used, Set<String> offered)
            throws ExpressionException {
        for (List<String> reference : used) {
            String head = reference.get(0);
            if (!offered.contains(head)) {
                throw new ExpressionException("\"" + source + "\" reads \"" + head + "\", which is not a variable here;"
                        + " the variables are: " + String.join(", ", offered.stream().sorted().toList()));
            }
            for (String part : reference) {
                if (FORBIDDEN_PROPERTIES.contains(part)) {
                    throw new ExpressionException("\"" + source + "\" reads the property \"" + part
                            + "\", which the sandbox forbids");
                }
            }
        }
        String code = STRINGS.matcher(source).replaceAll("''");
        for (String forbidden : FORBIDDEN_PROPERTIES) {
            if (Pattern.compile("\\.\\s*" + Pattern.quote(forbidden) + "\\b").matcher(code).find()
                    || Pattern.compile("\\[\\s*'" + Pattern.quote(forbidden) + "'").matcher(source).find()) {
                throw new ExpressionException("\"" + source + "\" reads the property \"" + forbidden
                        + "\", which the sandbox forbids");
            }
        }
    }

    private static String reason(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }
}
