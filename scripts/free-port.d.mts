/** A port the OS just gave out on 127.0.0.1, closed again (free-port.mjs). */
export declare function freePort(): Promise<number>;
