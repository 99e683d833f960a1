package io.jvmps.common.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON request bodies for input-class tests (the REST API's and the RSocket JSON routes'): a valid body as an ordered
 * map, and that body with one field set to a raw JSON value, given twice, or left out. Field order is kept, so a
 * message can be checked against the field it names. Stateless.
 */
public final class JsonBodies {
    private JsonBodies() {
    }

    /** @return an ordered body from name, value pairs (values: strings, numbers, lists and maps of them) */
    public static Map<String, Object> body(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    /** @return {@code body} as JSON with {@code field} set to {@code raw} JSON, or given twice when raw is null */
    public static String with(Map<String, Object> body, String field, String raw) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> e : body.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            String value = e.getKey().equals(field) && raw != null ? raw : literal(e.getValue());
            out.append('"').append(e.getKey()).append("\":").append(value);
            if (e.getKey().equals(field) && raw == null) {
                out.append(",\"").append(e.getKey()).append("\":").append(literal(e.getValue()));
            }
        }
        return out.append('}').toString();
    }

    /**
     * Every class of bad value for every field of one request: a string for a number, an object, an array (for a
     * field that is not one), the field given twice, missing and null (for a required field), and the field's own
     * out-of-range value.
     *
     * @param route      names the request in each case, e.g. a path or an RSocket route
     * @param body       a valid body
     * @param required   the fields that must be present and not null
     * @param outOfRange per field, a raw JSON value of the right type that is out of range
     * @return (route, field, what, JSON) per case, in field order
     */
    public static List<Object[]> badValues(String route, Map<String, Object> body, List<String> required,
                                           Map<String, String> outOfRange) {
        List<Object[]> all = new ArrayList<>();
        for (String field : body.keySet()) {
            Object valid = body.get(field);
            if (valid instanceof Number) {
                all.add(new Object[] {route, field, "a string", with(body, field, "\"abc\"")});
            }
            all.add(new Object[] {route, field, "an object", with(body, field, "{\"x\":1}")});
            if (!(valid instanceof List)) {
                all.add(new Object[] {route, field, "an array", with(body, field, "[1,2]")});
            }
            all.add(new Object[] {route, field, "given twice", with(body, field, null)});
            if (required.contains(field)) {
                all.add(new Object[] {route, field, "missing", without(body, field)});
                all.add(new Object[] {route, field, "null", with(body, field, "null")});
            }
            String bad = outOfRange.get(field);
            if (bad != null) {
                all.add(new Object[] {route, field, "out of range " + bad, with(body, field, bad)});
            }
        }
        return all;
    }

    /** @return {@code body} as JSON without {@code field} */
    public static String without(Map<String, Object> body, String field) {
        Map<String, Object> rest = new LinkedHashMap<>(body);
        rest.remove(field);
        return with(rest, "", "");
    }

    /** @return a value as JSON */
    public static String literal(Object value) {
        if (value instanceof String s) {
            return "\"" + s + "\"";
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(out.length() > 1 ? "," : "").append('"').append(e.getKey()).append("\":")
                        .append(literal(e.getValue()));
            }
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (Object item : list) {
                out.append(out.length() > 1 ? "," : "").append(literal(item));
            }
            return out.append(']').toString();
        }
        return String.valueOf(value);
    }
}
