-- Server processes cache callers with their workspace's plan (src/access/callers.ts). Of a workspace, only its plan
-- is access: spending AI credits (ai_reserve, ai_settle, ai_release update the workspace's credit columns) must
-- not make every process forget every cached caller.
DROP TRIGGER workspace_access_changed ON workspace;
CREATE TRIGGER workspace_access_changed AFTER UPDATE OF plan, plan_expires_at OR DELETE ON workspace
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
