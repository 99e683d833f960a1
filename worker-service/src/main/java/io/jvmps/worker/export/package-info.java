/** The trained model as files: {@code model.sd} (or a DL4J zip) and {@code model.json}, at the end of a job or asked for over REST while it runs. */
package io.jvmps.worker.export;
