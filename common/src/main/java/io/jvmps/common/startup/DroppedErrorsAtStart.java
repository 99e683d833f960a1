package io.jvmps.common.startup;

import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.context.ApplicationListener;

/** Installs {@link DroppedErrors} as a service starts (registered in {@code spring.factories}). */
public final class DroppedErrorsAtStart implements ApplicationListener<ApplicationStartingEvent> {
    @Override
    public void onApplicationEvent(ApplicationStartingEvent event) {
        DroppedErrors.install();
    }
}
