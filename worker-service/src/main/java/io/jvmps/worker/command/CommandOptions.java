package io.jvmps.worker.command;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of a worker jar command: {@code --name=value} pairs of known names, and {@code --help} (or
 * {@code -h}) as the name {@code help}. Stateless.
 */
public final class CommandOptions {
    private CommandOptions() {
    }

    /**
     * @param args   the command's arguments
     * @param known  the option names it takes
     * @param suffix appended to an error's message (e.g. the usage), or empty
     * @return the options by name, in the order given
     * @throws IllegalArgumentException for an argument that is not {@code --name=value} or an unknown name
     */
    public static Map<String, String> parse(String[] args, Set<String> known, String suffix) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                options.put("help", "");
                continue;
            }
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --name=value, got '" + arg + "'" + suffix);
            }
            String name = arg.substring(2, eq);
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + suffix);
            }
            options.put(name, arg.substring(eq + 1));
        }
        return options;
    }
}
