CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, placed timestamptz NOT NULL DEFAULT now());
INSERT INTO orders (item) VALUES ('teapot'), ('kettle'), ('cups');
